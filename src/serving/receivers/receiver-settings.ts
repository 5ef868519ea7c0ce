// The settings of the notices to clusters' Flux Receivers (docs/rollouts.md, "Making clusters
// poll now"), read with the rest of the configuration. RECEIVER_HOSTS is also what the rules
// judge receiver_url by (domain/rules/receiver-url.ts), so the service and `validate` read it alike.
import { parseReceiverHosts, type ReceiverHosts } from '../../domain/receiver-hosts.ts';
import { ConfigError, type Env } from '../../shared/secret-settings.ts';
import { parseDuration } from '../../shared/setting-values.ts';

export interface ReceiverSettings {
  /** RECEIVER_HOSTS: the hosts a receiver_url may name; undefined: receivers are off. */
  receiverHosts: ReceiverHosts | undefined;
  /** RECEIVER_TIMEOUT: one notice's deadline, connection to answer. */
  receiverTimeoutMs: number;
  /** RECEIVER_CONCURRENCY: notices in flight at once, over all clusters. */
  receiverConcurrency: number;
  /** RECEIVER_CA_FILE: a PEM file of CAs trusted for receivers beside the system's. */
  receiverCaFile: string | undefined;
}

export function receiverSettingsFrom(env: Env): ReceiverSettings {
  const hosts = parseReceiverHosts(env.RECEIVER_HOSTS);
  if (hosts !== undefined && 'error' in hosts) throw new ConfigError(hosts.error);
  const concurrency = env.RECEIVER_CONCURRENCY || '16';
  if (!/^[1-9]\d{0,3}$/.test(concurrency)) {
    throw new ConfigError(`RECEIVER_CONCURRENCY=${concurrency} is not a whole number from 1 to 9999`);
  }
  return {
    receiverHosts: hosts,
    receiverTimeoutMs: parseDuration('RECEIVER_TIMEOUT', env.RECEIVER_TIMEOUT || '5s'),
    receiverConcurrency: Number(concurrency),
    receiverCaFile: env.RECEIVER_CA_FILE || undefined,
  };
}

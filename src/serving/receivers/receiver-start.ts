// Whether this service notifies receivers, and with what: RECEIVER_HOSTS set, and a key to
// sign cluster tokens with (the Receiver's Secret holds the cluster's token). Without a key
// no notice could be verified, which the log says once instead of sending ones that fail.
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { clusterTokenKey } from '../../domain/cluster-token.ts';
import { StartupError } from '../../shared/startup-error.ts';
import { type PublicationFeed, ReceiverNotifier } from './receiver-notifier.ts';
import type { ReceiverSettings } from './receiver-settings.ts';

export function startReceiverNotifier(
  settings: ReceiverSettings & { clusterTokenKeys: readonly string[] },
  feed: PublicationFeed,
  log: Logger,
): ReceiverNotifier | undefined {
  const hosts = settings.receiverHosts;
  if (hosts === undefined) return undefined;
  const key = settings.clusterTokenKeys[0];
  if (key === undefined) {
    log.warn(
      'RECEIVER_HOSTS is set, but CLUSTER_TOKEN_KEYS is not: receivers verify notices with the cluster token, so ' +
        'none are sent',
    );
    return undefined;
  }
  let extraCa: string | undefined;
  if (settings.receiverCaFile !== undefined) {
    try {
      extraCa = readFileSync(settings.receiverCaFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new StartupError(`RECEIVER_CA_FILE ${settings.receiverCaFile} cannot be read: ${code}`);
    }
  }
  return new ReceiverNotifier(feed, {
    hosts,
    tokenKey: clusterTokenKey(key),
    timeoutMs: settings.receiverTimeoutMs,
    concurrency: settings.receiverConcurrency,
    extraCa,
    log,
  });
}

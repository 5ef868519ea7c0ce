// The settings of the events clusters send (docs/configuration.md), read with the rest of the
// configuration: each cluster's allowance, and the memory the events kept may take.
import { ConfigError, type Env } from '../shared/secret-settings.ts';
import { parseByteSize } from '../shared/setting-values.ts';
import type { EventRateSettings } from './event-rate-limit.ts';

export interface EventSettings {
  /** EVENTS_RATE (default 10 a second) and EVENTS_BURST (default 100). */
  eventRate: EventRateSettings;
  /** EVENTS_MEMORY: the most the events kept may hold, all clusters together (default 16mb). */
  eventMemoryBytes: number;
}

export function eventSettingsFrom(env: Env): EventSettings {
  const perSecond = positiveNumber(env, 'EVENTS_RATE', '10');
  const burst = positiveNumber(env, 'EVENTS_BURST', '100');
  if (!Number.isInteger(burst))
    throw new ConfigError(`EVENTS_BURST=${env.EVENTS_BURST} is not a whole number of events`);
  const eventMemoryBytes = parseByteSize('EVENTS_MEMORY', env.EVENTS_MEMORY || '16mb');
  if (eventMemoryBytes < 64 * 1024)
    throw new ConfigError('EVENTS_MEMORY is below 64kb: too little to keep the events of one upgrade');
  return { eventRate: { perSecond, burst }, eventMemoryBytes };
}

function positiveNumber(env: Env, name: string, fallback: string): number {
  const text = env[name] || fallback;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0)) throw new ConfigError(`${name}=${text} is not a positive number`);
  return value;
}

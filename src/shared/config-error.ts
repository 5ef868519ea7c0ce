import { StartupError } from './startup-error.ts';

/** A setting of the environment that cannot be used: the start stops with one line naming it. */
export class ConfigError extends StartupError {}

import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gitops-config-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: the code never logs these, and if it ever did they would be hidden.
      redact: { paths: ['authorization', 'headers.authorization', 'token', '*.token', 'password', '*.password'], censor: '[redacted]' },
    },
    destination,
  );
}

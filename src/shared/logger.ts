import { pino, type Logger } from 'pino';
import { redactUrls } from './redact-url.ts';

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gitops-config-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: the code never logs these, and if it ever did they would be hidden.
      redact: {
        paths: ['authorization', 'headers.authorization', 'token', '*.token', 'password', '*.password'],
        censor: '[redacted]',
      },
      // Every line, whatever logged it (an error's message or stack from a library included),
      // loses the secrets a URL may carry: user info and token query words.
      hooks: { streamWrite: redactUrls },
    },
    destination,
  );
}

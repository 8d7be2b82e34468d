import pino, { type Logger } from 'pino';
import { createRequire } from 'node:module';
import type { Config } from './config/index.ts';

export type { Logger } from 'pino';

/** Builds the process logger: JSON lines, or human-readable lines on a terminal (LOG_FORMAT / LOG_STYLE). */
export function createLogger(log: Config['log'], destination: NodeJS.WritableStream = process.stdout): Logger {
  const usePretty = log.style === 'pretty' || (log.style === 'auto' && 'isTTY' in destination && destination.isTTY === true);
  const options = {
    level: log.level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], censor: '[redacted]' },
  };
  if (usePretty) {
    // pino-pretty loads only for readable logs: a server logging JSON lines (no terminal) never loads it.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    return pino(options, pretty({ destination, colorize: 'isTTY' in destination && destination.isTTY === true, singleLine: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l', sync: true }));
  }
  return pino(options, destination);
}

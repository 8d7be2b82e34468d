import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { createLogger } from '../../../server/logger.ts';

/** A stream that keeps what is written; `tty` makes it look like a terminal to the logger. */
function capture(tty: boolean): Writable & { text(): string; isTTY?: boolean } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  }) as Writable & { text(): string; isTTY?: boolean };
  if (tty) stream.isTTY = true;
  stream.text = () => text;
  return stream;
}

function logOnce(env: Record<string, string>, tty: boolean): string {
  const stream = capture(tty);
  const logger = createLogger(loadConfig(env, '/tmp').log, stream);
  logger.info({ port: 8055 }, 'server started');
  logger.flush();
  return stream.text();
}

const isJsonLine = (text: string) => {
  const line = JSON.parse(text.trim()) as Record<string, unknown>;
  return line.msg === 'server started' && line.port === 8055;
};

describe('log format', () => {
  it('auto: readable on a terminal, JSON lines otherwise', () => {
    const pretty = logOnce({}, true);
    expect(pretty).toMatch(/INFO.*server started/);
    expect(pretty).toContain('port');
    expect(pretty.trim().split('\n')).toHaveLength(1);
    expect(() => JSON.parse(pretty)).toThrow();
    expect(isJsonLine(logOnce({}, false))).toBe(true);
  });

  it('LOG_FORMAT=pretty is readable off a terminal (without colour codes); LOG_FORMAT=json is JSON on one', () => {
    const pretty = logOnce({ LOG_FORMAT: 'pretty' }, false);
    expect(pretty).toMatch(/INFO: server started/);
    expect(pretty).not.toContain('\u001b[');
    expect(isJsonLine(logOnce({ LOG_FORMAT: 'json' }, true))).toBe(true);
  });

  it('LOG_FORMAT wins over LOG_STYLE, which still works alone', () => {
    expect(isJsonLine(logOnce({ LOG_FORMAT: 'json', LOG_STYLE: 'pretty' }, false))).toBe(true);
    expect(logOnce({ LOG_STYLE: 'pretty' }, false)).toMatch(/INFO: server started/);
    expect(isJsonLine(logOnce({ LOG_STYLE: 'raw' }, true))).toBe(true);
  });

  it('rejects an unknown LOG_FORMAT, naming the variable', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' }, '/tmp')).toThrow(/LOG_FORMAT/);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { ConfigError } from '../../../server/errors.ts';

const CWD = path.resolve('/srv/tessera');

describe('PROJECT_TIME_ZONE', () => {
  it('defaults to UTC and takes IANA names', () => {
    expect(loadConfig({}, CWD).project.timeZone).toBe('UTC');
    expect(loadConfig({ PROJECT_TIME_ZONE: 'America/Sao_Paulo' }, CWD).project.timeZone).toBe('America/Sao_Paulo');
  });

  it.each(['Mars/Olympus', "UTC'--", 'GMT+3 hours'])('refuses %j, naming the variable', (zone) => {
    let error: unknown;
    try {
      loadConfig({ PROJECT_TIME_ZONE: zone }, CWD);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('PROJECT_TIME_ZONE');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, withConfig } from '../../../server/config/index.ts';
import { ConfigError } from '../../../server/errors.ts';
import { CONFIG_CWD as CWD, configError } from '../../helpers/config-error.ts';

const SECRET = 'x'.repeat(32);

describe('loadConfig defaults', () => {
  const config = loadConfig({}, CWD);

  it('listens on 8055 and derives PUBLIC_URL from the port', () => {
    expect(config.server.port).toBe(8055);
    expect(config.server.publicUrl).toBe('http://localhost:8055');
  });

  it('derives PUBLIC_URL from a custom port', () => {
    expect(loadConfig({ PORT: '3000' }, CWD).server.publicUrl).toBe('http://localhost:3000');
  });

  it('resolves DATA_DIR against cwd', () => {
    expect(config.dataDir).toBe(path.join(CWD, 'data'));
    expect(loadConfig({ DATA_DIR: '../elsewhere' }, CWD).dataDir).toBe(path.resolve(CWD, '../elsewhere'));
  });

  it('runs in development at log level info without a secret or database URL', () => {
    expect(config.env).toBe('development');
    expect(config.log.level).toBe('info');
    expect(config.secret).toBeNull();
    expect(config.database.url).toBeNull();
  });

  it('accepts 1 MiB bodies, 15 minute access tokens and 30 day refresh tokens', () => {
    expect(config.server.maxPayloadSize).toBe(1024 * 1024);
    expect(config.auth.accessTokenTtlMs).toBe(15 * 60 * 1000);
    expect(config.auth.refreshTokenTtlMs).toBe(2_592_000_000);
  });

  it('leaves CORS off', () => {
    expect(config.cors.enabled).toBe(false);
  });
});

describe('loadConfig casts', () => {
  it('parses sizes', () => {
    expect(loadConfig({ MAX_PAYLOAD_SIZE: '2mb' }, CWD).server.maxPayloadSize).toBe(2 * 1024 * 1024);
    expect(loadConfig({ MAX_PAYLOAD_SIZE: '512kb' }, CWD).server.maxPayloadSize).toBe(512 * 1024);
    expect(loadConfig({ MAX_PAYLOAD_SIZE: '1048576' }, CWD).server.maxPayloadSize).toBe(1_048_576);
  });

  it('parses durations, reading bare numbers as seconds', () => {
    expect(loadConfig({ ACCESS_TOKEN_TTL: '1h' }, CWD).auth.accessTokenTtlMs).toBe(3_600_000);
    expect(loadConfig({ ACCESS_TOKEN_TTL: '900' }, CWD).auth.accessTokenTtlMs).toBe(900_000);
    expect(loadConfig({ REFRESH_TOKEN_TTL: '7d' }, CWD).auth.refreshTokenTtlMs).toBe(7 * 86_400_000);
  });

  it('splits comma-separated lists and trims their items', () => {
    const { cors } = loadConfig({ CORS_ORIGIN: 'https://a.example, https://b.example ,', CORS_METHODS: 'GET,POST' }, CWD);
    expect(cors.origin).toEqual(['https://a.example', 'https://b.example']);
    expect(cors.methods).toEqual(['GET', 'POST']);
  });

  it('parses booleans', () => {
    const { cors } = loadConfig({ CORS_ENABLED: 'true', CORS_CREDENTIALS: 'false' }, CWD);
    expect(cors.enabled).toBe(true);
    expect(cors.credentials).toBe(false);
  });

  it('strips trailing slashes from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cms.example.com/base/' }, CWD).server.publicUrl).toBe('https://cms.example.com/base');
  });

  it('accepts a localhost PUBLIC_URL (the form of its own default)', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8055' }, CWD).server.publicUrl).toBe('http://localhost:8055');
  });

  it('lowercases ADMIN_EMAIL', () => {
    expect(loadConfig({ ADMIN_EMAIL: 'Admin@Example.COM' }, CWD).admin.email).toBe('admin@example.com');
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '', SECRET: '', DATA_DIR: '', LOG_LEVEL: '', CORS_ORIGIN: '' }, CWD);
    expect(config.server.port).toBe(8055);
    expect(config.secret).toBeNull();
    expect(config.dataDir).toBe(path.join(CWD, 'data'));
    expect(config.log.level).toBe('info');
    expect(config.cors.origin).toEqual(['*']);
  });
});

describe('loadConfig *_FILE variables', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the value from the file, trimmed, in preference to the variable', () => {
    const file = path.join(dir, 'secret');
    writeFileSync(file, `  ${SECRET}\n`);
    expect(loadConfig({ SECRET_FILE: file, SECRET: 'ignored' }, CWD).secret).toBe(SECRET);
  });

  it('reports a missing file', () => {
    const missing = path.join(dir, 'missing');
    const error = configError({ SECRET_FILE: missing });
    expect(error.problems).toEqual([`SECRET_FILE: cannot read ${missing} (ENOENT)`]);
  });
});

describe('loadConfig validation', () => {
  it('names every bad variable in one ConfigError', () => {
    const error = configError({ PORT: 'abc', LOG_LEVEL: 'loud', MAX_PAYLOAD_SIZE: 'huge', ACCESS_TOKEN_TTL: 'soon', CORS_ENABLED: 'maybe' });
    const names = error.problems.map((problem) => problem.split(':')[0]);
    expect(names.sort()).toEqual(['ACCESS_TOKEN_TTL', 'CORS_ENABLED', 'LOG_LEVEL', 'MAX_PAYLOAD_SIZE', 'PORT']);
    expect(error.problems).toContain('PORT: must be a port number (got "abc")');
    for (const name of names) expect(error.message).toContain(name);
  });

  it('rejects out-of-range and non-positive values', () => {
    expect(configError({ PORT: '70000' }).problems).toHaveLength(1);
    expect(configError({ ACCESS_TOKEN_TTL: '-1h' }).problems[0]).toMatch(/^ACCESS_TOKEN_TTL:/);
  });

  it('refuses production without SECRET', () => {
    const error = configError({ NODE_ENV: 'production' });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^SECRET: is required when NODE_ENV is production/);
  });

  it('accepts production with a SECRET', () => {
    expect(loadConfig({ NODE_ENV: 'production', SECRET }, CWD).secret).toBe(SECRET);
  });

  it('refuses a SECRET shorter than 32 characters', () => {
    const error = configError({ SECRET: 'x'.repeat(31) });
    expect(error.problems).toEqual(['SECRET: must be at least 32 characters (got a value of 31 characters, not shown)']);
  });
});

describe('configuration errors never show a secret', () => {
  const PASSWORD = 'hunter2-Zq9';

  it('names a bad secret variable without its value', () => {
    for (const [name, value] of [
      ['SECRET', 'short-secret-value'],
      ['ADMIN_PASSWORD', 'pw-Zq9'],
    ] as const) {
      const error = configError({ [name]: value });
      expect(error.problems).toEqual([expect.stringMatching(new RegExp(`^${name}: .*not shown\\)$`))]);
      expect(error.message).not.toContain(value);
    }
  });

  it('masks the password of a DB_URL or REDIS_URL that is refused', () => {
    const cases = {
      DB_URL: [`mysql://app:${PASSWORD}@db.example:3306/cms`, `postgres://app:${PASSWORD}@db.example:notaport/cms`, `host=db user=app password=${PASSWORD}`],
      REDIS_URL: [`http://:${PASSWORD}@cache.example:6379`, `redis://:${PASSWORD}@cache.example:port`],
    };
    for (const [name, values] of Object.entries(cases)) {
      for (const value of values) {
        const error = configError({ [name]: value });
        expect(error.problems.length).toBeGreaterThan(0);
        for (const problem of error.problems) expect(problem).toMatch(new RegExp(`^${name}: must be`));
        expect(error.message).not.toContain(PASSWORD);
      }
    }
    expect(configError({ DB_URL: `mysql://app:${PASSWORD}@db.example:3306/cms` }).problems[0]).toContain('"mysql://app:***@db.example:3306/cms"');
  });

  it('still shows the value of a variable that is no secret', () => {
    expect(configError({ DB_URL: 'mysql://db.example/cms' }).problems).toEqual(['DB_URL: must be a postgres:// URL (got "mysql://db.example/cms")']);
  });
});

describe('config immutability', () => {
  it('returns a deeply frozen config', () => {
    const config = loadConfig({}, CWD);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.server)).toBe(true);
    expect(Object.isFrozen(config.cors.origin)).toBe(true);
    expect(() => {
      (config.server as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('withConfig returns a new frozen config and leaves the original alone', () => {
    const config = loadConfig({}, CWD);
    const changed = withConfig(config, { secret: SECRET });
    expect(changed).not.toBe(config);
    expect(changed.secret).toBe(SECRET);
    expect(config.secret).toBeNull();
    expect(changed.server).toEqual(config.server);
    expect(changed.server).not.toBe(config.server);
    expect(Object.isFrozen(changed)).toBe(true);
    expect(Object.isFrozen(changed.cors.methods)).toBe(true);
  });
});

describe('loadConfig SMTP mail', () => {
  it('defaults the port from EMAIL_SMTP_SECURE and reads every setting', () => {
    expect(loadConfig({ EMAIL_TRANSPORT: 'smtp', EMAIL_SMTP_HOST: 'smtp.example.com' }, CWD).mail.smtp).toMatchObject({ host: 'smtp.example.com', port: 587, secure: false, user: null, tlsRejectUnauthorized: true });
    const config = loadConfig(
      { EMAIL_TRANSPORT: 'smtp', EMAIL_SMTP_HOST: 'smtp.example.com', EMAIL_SMTP_SECURE: 'true', EMAIL_SMTP_USER: 'u', EMAIL_SMTP_PASSWORD: 'p', EMAIL_SMTP_NAME: 'cms.example.com' },
      CWD,
    );
    expect(config.mail).toMatchObject({ transport: 'smtp', smtp: { port: 465, secure: true, user: 'u', password: 'p', name: 'cms.example.com' } });
  });

  it('names every bad SMTP variable at once', () => {
    const error = configError({
      EMAIL_TRANSPORT: 'smtp',
      EMAIL_SMTP_PORT: '70000',
      EMAIL_SMTP_SECURE: 'maybe',
      EMAIL_SMTP_IGNORE_TLS: 'perhaps',
      EMAIL_SMTP_USER: 'only-user',
      EMAIL_SMTP_TLS_CA: 'not a pem',
      EMAIL_SMTP_TLS_REJECT_UNAUTHORIZED: 'nope',
    });
    const text = error.problems.join('\n');
    for (const name of ['EMAIL_SMTP_PORT: must be a port number', 'EMAIL_SMTP_SECURE: must be true or false', 'EMAIL_SMTP_IGNORE_TLS: must be true or false', 'EMAIL_SMTP_USER and EMAIL_SMTP_PASSWORD', 'EMAIL_SMTP_TLS_CA: must be a PEM certificate', 'EMAIL_SMTP_TLS_REJECT_UNAUTHORIZED: must be true or false']) {
      expect(text).toContain(name);
    }
  });

  it('requires a host for the smtp transport and refuses contradictory TLS settings', () => {
    expect(configError({ EMAIL_TRANSPORT: 'smtp' }).problems).toContain('EMAIL_SMTP_HOST: is required when EMAIL_TRANSPORT is smtp');
    expect(configError({ EMAIL_TRANSPORT: 'smtp', EMAIL_SMTP_HOST: 'h', EMAIL_SMTP_SECURE: 'true', EMAIL_SMTP_IGNORE_TLS: 'true' }).problems.join('\n')).toContain('EMAIL_SMTP_IGNORE_TLS: cannot be true');
    expect(configError({ EMAIL_SMTP_HOST: 'smtp://h:25' }).problems.join('\n')).toContain('EMAIL_SMTP_HOST: must be a host name');
  });
});

describe('loadConfig OpenTelemetry traces (OTEL_*)', () => {
  it('is off unless an OTLP exporter is configured', () => {
    expect(loadConfig({}, CWD).traces).toEqual({ enabled: false, url: null, protocol: 'http/protobuf', serviceName: 'tessera', sampler: 'parentbased_always_on', samplerRatio: 1, batch: { scheduleDelayMs: 5000, maxQueueSize: 2048 } });
    expect(loadConfig({ OTEL_SERVICE_NAME: 'cms', OTEL_TRACES_SAMPLER: 'always_on' }, CWD).traces.enabled).toBe(false);
  });

  it('sends to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces, or to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, CWD).traces).toMatchObject({ enabled: true, url: 'http://collector:4318/v1/traces' });
    const both = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest' }, CWD).traces;
    expect(both).toMatchObject({ enabled: true, url: 'https://traces.example/ingest' });
  });

  it('follows OTEL_TRACES_EXPORTER and OTEL_SDK_DISABLED', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }, CWD).traces).toMatchObject({ enabled: true, url: null });
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, CWD).traces.enabled).toBe(false);
    expect(loadConfig({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, CWD).traces.enabled).toBe(false);
  });

  it('takes the traces protocol over the general one, and the sampler with its ratio', () => {
    const traces = loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25', OTEL_BSP_SCHEDULE_DELAY: '1000', OTEL_BSP_MAX_QUEUE_SIZE: '100' }, CWD).traces;
    expect(traces).toMatchObject({ protocol: 'http/json', sampler: 'parentbased_traceidratio', samplerRatio: 0.25, batch: { scheduleDelayMs: 1000, maxQueueSize: 100 } });
  });

  it('names each bad OTEL_* variable', () => {
    const { problems } = configError({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_TRACES_SAMPLER: 'sometimes', OTEL_TRACES_SAMPLER_ARG: '2', OTEL_TRACES_EXPORTER: 'zipkin' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^OTEL_EXPORTER_OTLP_PROTOCOL: must be http\/protobuf or http\/json \(grpc is not supported\)/),
        expect.stringMatching(/^OTEL_EXPORTER_OTLP_ENDPOINT: must be an absolute http/),
        expect.stringMatching(/^OTEL_TRACES_SAMPLER: must be one of always_on, /),
        expect.stringMatching(/^OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1/),
        expect.stringMatching(/^OTEL_TRACES_EXPORTER: must be otlp or none/),
      ]),
    );
    expect(problems).toHaveLength(5);
  });
});

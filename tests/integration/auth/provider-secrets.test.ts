import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnCli } from '../../helpers/cli.ts';
import { createMigratedDatabase } from '../../helpers/test-database.ts';
import { PEOPLE_DN, person, SERVICE_DN, SERVICE_PASSWORD, startLdapServer } from './ldap-server.ts';

const ADMIN = { email: 'secrets@example.com', password: 'secrets-password-1' };
const SECRETS = { client: 'hub-client-secret-5d1e', brokenBind: 'broken-bind-secret-77aa', user: 'dana-pass-93fc', wrong: 'dana-wrong-pass-41bd' };

describe('sign-in provider secrets', () => {
  afterAll(killSpawned);

  it('never appear in the log (debug level), an answer or a schema snapshot', { timeout: 150_000 }, async () => {
    const ldap = await startLdapServer();
    const database = await createMigratedDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-provider-secrets-'));
    try {
      await ldap.add(...person('dana', SECRETS.user));
      const directory = (name: string, password: string) => ({
        [`AUTH_${name}_DRIVER`]: 'ldap',
        [`AUTH_${name}_CLIENT_URL`]: ldap.url,
        [`AUTH_${name}_BIND_DN`]: SERVICE_DN,
        [`AUTH_${name}_BIND_PASSWORD`]: password,
        [`AUTH_${name}_USER_DN`]: PEOPLE_DN,
        [`AUTH_${name}_USER_ATTRIBUTE`]: 'uid',
        [`AUTH_${name}_ALLOW_PUBLIC_REGISTRATION`]: 'true',
      });
      const server = spawnCli(['start'], {
        cwd: dir,
        env: {
          PORT: '0',
          HOST: '127.0.0.1',
          DB_URL: database.url,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'debug',
          AUTH_PROVIDERS: 'hub,corp,broken',
          AUTH_HUB_DRIVER: 'oauth2',
          AUTH_HUB_CLIENT_ID: 'hub-client',
          AUTH_HUB_CLIENT_SECRET: SECRETS.client,
          AUTH_HUB_AUTHORIZE_URL: 'http://127.0.0.1:9/authorize',
          AUTH_HUB_ACCESS_URL: 'http://127.0.0.1:9/token',
          AUTH_HUB_PROFILE_URL: 'http://127.0.0.1:9/user',
          ...directory('CORP', SERVICE_PASSWORD),
          ...directory('BROKEN', SECRETS.brokenBind),
        },
      });
      const [, port] = await server.waitFor(/Admin:\s+http:\/\/localhost:(\d+)\/admin/, 120_000);
      const url = `http://127.0.0.1:${port}`;
      const answers: string[] = [];
      const call = async (route: string, init: RequestInit = {}) => {
        const response = await fetch(url + route, { redirect: 'manual', ...init });
        const text = await response.text();
        answers.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
        return { status: response.status, text };
      };
      const post = (route: string, body: unknown, token?: string) => call(route, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

      expect((await post('/auth/login/corp', { identifier: 'dana', password: SECRETS.user })).status).toBe(200);
      expect((await post('/auth/login/corp', { identifier: 'dana', password: SECRETS.wrong })).status).toBe(401);
      expect((await post('/auth/login/broken', { identifier: 'dana', password: SECRETS.user })).status).toBe(503);
      expect((await call('/auth/login/hub')).status).toBe(302);
      // The token endpoint cannot be reached: the failure is logged and answered.
      expect((await call('/auth/login/hub/callback?code=abc&state=xyz')).status).toBe(401);
      expect((await call('/auth')).status).toBe(200);
      expect((await call('/auth/providers')).status).toBe(200);
      const token = JSON.parse((await post('/auth/login', ADMIN)).text).data.access_token as string;
      expect((await call('/schema/snapshot', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const users = await call('/users?fields=*', { headers: { authorization: `Bearer ${token}` } });
      expect(users.text).toContain('dana@directory.test');
      // A sentinel request after the others: once it is logged, so is everything before it.
      await call('/server/ping?sentinel=provider-secrets');
      const deadline = Date.now() + 20_000;
      while (!server.output().includes('provider-secrets') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.output()).toContain('provider-secrets');
      // The directory failure is logged with its reason (so the test would see a leaked password).
      expect(server.output()).toMatch(/refused BIND_DN and BIND_PASSWORD/);

      const everything = `${server.output()}\n${answers.join('\n')}`;
      for (const secret of [...Object.values(SECRETS), SERVICE_PASSWORD]) expect(everything).not.toContain(secret);
      await server.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
      await ldap.close();
    }
  });
});

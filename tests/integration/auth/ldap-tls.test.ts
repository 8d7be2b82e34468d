import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../helpers/smtp-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { PEOPLE_DN, person, SERVICE_DN, SERVICE_PASSWORD, startLdapServer, type TestLdapServer } from './ldap-server.ts';

/** LDAP over TLS: ldaps:// and StartTLS, with the server's certificate trusted through CLIENT_TLS_CA or not. */
describe('LDAP sign-in over TLS', () => {
  let ldap: TestLdapServer;
  let cert: { key: string; cert: string };
  const apps: TestApp[] = [];

  beforeAll(async () => {
    cert = await selfSignedCertificate();
    ldap = await startLdapServer({ tls: cert });
    await ldap.add(...person('tls', 'tls-pass-1'));
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await ldap?.close();
  });

  async function appWith(extra: Record<string, string>): Promise<TestApp> {
    const app = await createTestApp({
      AUTH_PROVIDERS: 'corp',
      AUTH_CORP_DRIVER: 'ldap',
      AUTH_CORP_BIND_DN: SERVICE_DN,
      AUTH_CORP_BIND_PASSWORD: SERVICE_PASSWORD,
      AUTH_CORP_USER_DN: PEOPLE_DN,
      AUTH_CORP_USER_ATTRIBUTE: 'uid',
      AUTH_CORP_ALLOW_PUBLIC_REGISTRATION: 'true',
      ...extra,
    });
    apps.push(app);
    return app;
  }
  const signIn = (app: TestApp) => app.request.post('/auth/login/corp').send({ identifier: 'tls', password: 'tls-pass-1' });

  it('signs in over ldaps:// when CLIENT_TLS_CA trusts the server, and refuses an untrusted certificate', async () => {
    const trusted = await appWith({ AUTH_CORP_CLIENT_URL: ldap.ldapsUrl!, AUTH_CORP_CLIENT_TLS_CA: cert.cert });
    await signIn(trusted).expect(200);
    const untrusted = await appWith({ AUTH_CORP_CLIENT_URL: ldap.ldapsUrl! });
    const refused = await signIn(untrusted).expect(503);
    expect(refused.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    const unchecked = await appWith({ AUTH_CORP_CLIENT_URL: ldap.ldapsUrl!, AUTH_CORP_CLIENT_TLS_REJECT_UNAUTHORIZED: 'false' });
    await signIn(unchecked).expect(200);
  });

  it('upgrades ldap:// with StartTLS when CLIENT_START_TLS is true', async () => {
    const startTls = await appWith({ AUTH_CORP_CLIENT_URL: ldap.url, AUTH_CORP_CLIENT_START_TLS: 'true', AUTH_CORP_CLIENT_TLS_CA: cert.cert });
    await signIn(startTls).expect(200);
    const untrusted = await appWith({ AUTH_CORP_CLIENT_URL: ldap.url, AUTH_CORP_CLIENT_START_TLS: 'true' });
    await signIn(untrusted).expect(503);
  });
});

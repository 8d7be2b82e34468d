import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { driverVariableSuffixes } from '../../../server/config/auth-provider-variables.ts';
import { ConfigError } from '../../../server/errors.ts';

const ROLE_ID = '5b3c1c3e-8a51-4a4e-9a36-1f2b3c4d5e6f';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/tessera');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('OpenID Connect provider configuration', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-oidc-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no providers by default', () => {
    expect(loadConfig({}, '/srv/tessera').auth.providers).toEqual([]);
  });

  it('reads AUTH_<NAME>_* with their defaults, lowercasing the name', () => {
    const { providers } = loadConfig({ AUTH_PROVIDERS: 'Keycloak', AUTH_KEYCLOAK_ISSUER_URL: 'https://id.example/realms/main', AUTH_KEYCLOAK_CLIENT_ID: 'cms' }, '/srv/tessera').auth;
    expect(providers).toEqual([
      {
        name: 'keycloak',
        driver: 'openid',
        issuerUrl: 'https://id.example/realms/main',
        clientId: 'cms',
        clientSecret: null,
        scope: 'openid',
        label: 'Keycloak',
        icon: null,
        allowPublicRegistration: false,
        defaultRoleId: null,
        syncUserInfo: false,
        identifierKey: 'sub',
        emailKey: 'email',
        firstNameKey: 'given_name',
        lastNameKey: 'family_name',
        redirectAllowList: [],
      },
    ]);
  });

  it('reads every option, and the client secret from a _FILE twin', () => {
    const secretFile = path.join(dir, 'secret');
    writeFileSync(secretFile, 'from-file\n');
    const [google] = loadConfig(
      {
        AUTH_PROVIDERS: 'google',
        AUTH_GOOGLE_ISSUER_URL: 'https://accounts.google.com',
        AUTH_GOOGLE_CLIENT_ID: 'id',
        AUTH_GOOGLE_CLIENT_SECRET_FILE: secretFile,
        AUTH_GOOGLE_SCOPE: 'openid email profile',
        AUTH_GOOGLE_LABEL: 'Google Workspace',
        AUTH_GOOGLE_ICON: 'google',
        AUTH_GOOGLE_ALLOW_PUBLIC_REGISTRATION: 'true',
        AUTH_GOOGLE_DEFAULT_ROLE_ID: ROLE_ID,
        AUTH_GOOGLE_IDENTIFIER_KEY: 'email',
        AUTH_GOOGLE_REDIRECT_ALLOW_LIST: 'https://app.example/done, https://other.example/',
      },
      '/srv/tessera',
    ).auth.providers;
    expect(google).toMatchObject({
      clientSecret: 'from-file',
      scope: 'openid email profile',
      label: 'Google Workspace',
      icon: 'google',
      allowPublicRegistration: true,
      defaultRoleId: ROLE_ID,
      identifierKey: 'email',
      redirectAllowList: ['https://app.example/done', 'https://other.example/'],
    });
  });

  it('names every bad provider variable in one error', () => {
    const problems = problemsOf({
      AUTH_PROVIDERS: 'acme',
      AUTH_ACME_ISSUER_URL: 'ftp://id.example',
      AUTH_ACME_SCOPE: 'email profile',
      AUTH_ACME_ALLOW_PUBLIC_REGISTRATION: 'sometimes',
      AUTH_ACME_DEFAULT_ROLE_ID: 'editors',
      AUTH_ACME_REDIRECT_ALLOW_LIST: 'not-a-url',
    });
    expect(problems.sort()).toEqual([
      'AUTH_ACME_ALLOW_PUBLIC_REGISTRATION: must be true or false (got "sometimes")',
      'AUTH_ACME_CLIENT_ID: is required (got undefined)',
      'AUTH_ACME_DEFAULT_ROLE_ID: must be a role id (uuid) (got "editors")',
      'AUTH_ACME_ISSUER_URL: must be an absolute http:// or https:// URL (got "ftp://id.example")',
      'AUTH_ACME_REDIRECT_ALLOW_LIST: must list absolute http:// or https:// URLs (got "not-a-url")',
      'AUTH_ACME_SCOPE: must include openid (got "email profile")',
    ]);
  });

  it('refuses reserved, malformed and repeated provider names', () => {
    const base = (name: string) => ({ [`AUTH_${name.toUpperCase()}_ISSUER_URL`]: 'https://id.example', [`AUTH_${name.toUpperCase()}_CLIENT_ID`]: 'x' });
    for (const name of ['email', 'credentials', 'default', '1st', 'my-idp']) {
      const problems = problemsOf({ AUTH_PROVIDERS: name, ...base(name) });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^AUTH_PROVIDERS: "${name}" must be a unique name`));
    }
    expect(problemsOf({ AUTH_PROVIDERS: 'okta,OKTA', ...base('okta') })).toHaveLength(1);
  });

  it('documents every per-provider variable in docs/config.md', () => {
    const docs = readFileSync(new URL('../../../docs/config.md', import.meta.url), 'utf8');
    expect(docs).toContain('| `AUTH_PROVIDERS` |');
    for (const suffix of driverVariableSuffixes('openid')) expect(docs).toContain(`| \`AUTH_<NAME>_${suffix}\` |`);
  });
});

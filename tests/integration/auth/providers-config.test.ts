import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH_DRIVERS, driverVariableSuffixes } from '../../../server/config/auth-provider-variables.ts';
import { loadConfig } from '../../../server/config/index.ts';
import { ConfigError } from '../../../server/errors.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/tessera');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

const SP_METADATA = '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://cms.example/sp"/>';
const IDP_METADATA = '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example"/>';

describe('sign-in provider drivers (AUTH_<NAME>_DRIVER)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-providers-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads an oauth2 provider with Directus\'s option names and defaults', () => {
    const [github] = loadConfig(
      {
        AUTH_PROVIDERS: 'github',
        AUTH_GITHUB_DRIVER: 'oauth2',
        AUTH_GITHUB_CLIENT_ID: 'id',
        AUTH_GITHUB_CLIENT_SECRET: 'secret',
        AUTH_GITHUB_AUTHORIZE_URL: 'https://github.com/login/oauth/authorize',
        AUTH_GITHUB_ACCESS_URL: 'https://github.com/login/oauth/access_token',
        AUTH_GITHUB_PROFILE_URL: 'https://api.github.com/user',
      },
      '/srv/tessera',
    ).auth.providers;
    expect(github).toEqual({
      name: 'github',
      driver: 'oauth2',
      label: 'Github',
      icon: null,
      allowPublicRegistration: false,
      defaultRoleId: null,
      syncUserInfo: false,
      redirectAllowList: [],
      clientId: 'id',
      clientSecret: 'secret',
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      accessUrl: 'https://github.com/login/oauth/access_token',
      profileUrl: 'https://api.github.com/user',
      scope: 'email',
      identifierKey: 'email',
      emailKey: 'email',
      firstNameKey: null,
      lastNameKey: null,
    });
  });

  it('reads an ldap provider, the bind password and CA from _FILE twins', () => {
    writeFileSync(path.join(dir, 'bind'), 'from-file\n');
    writeFileSync(path.join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    const [corp] = loadConfig(
      {
        AUTH_PROVIDERS: 'corp',
        AUTH_CORP_DRIVER: 'ldap',
        AUTH_CORP_CLIENT_URL: 'ldaps://ldap.example:636',
        AUTH_CORP_BIND_DN: 'cn=reader,dc=example',
        AUTH_CORP_BIND_PASSWORD_FILE: path.join(dir, 'bind'),
        AUTH_CORP_USER_DN: 'ou=people,dc=example',
        AUTH_CORP_GROUP_DN: 'ou=groups,dc=example',
        AUTH_CORP_CLIENT_TLS_CA_FILE: path.join(dir, 'ca.pem'),
      },
      '/srv/tessera',
    ).auth.providers;
    expect(corp).toMatchObject({
      driver: 'ldap',
      clientUrl: 'ldaps://ldap.example:636',
      bindPassword: 'from-file',
      tlsCa: expect.stringContaining('BEGIN CERTIFICATE'),
      tlsRejectUnauthorized: true,
      startTls: false,
      userAttribute: 'cn',
      userScope: 'one',
      groupDn: 'ou=groups,dc=example',
      groupAttribute: 'member',
      groupScope: 'one',
      identifierKey: 'dn',
      emailKey: 'mail',
      firstNameKey: 'givenName',
      lastNameKey: 'sn',
    });
  });

  it('reads a saml provider, accepting Directus\'s SP_metadata spelling', () => {
    const [okta] = loadConfig({ AUTH_PROVIDERS: 'okta', AUTH_OKTA_DRIVER: 'saml', AUTH_OKTA_SP_metadata: SP_METADATA, AUTH_OKTA_IDP_METADATA: IDP_METADATA }, '/srv/tessera').auth.providers;
    expect(okta).toMatchObject({ driver: 'saml', spMetadata: SP_METADATA, idpMetadata: IDP_METADATA, identifierKey: 'nameID' });
  });

  it('keeps OpenID Connect the driver when AUTH_<NAME>_DRIVER is unset', () => {
    const [keycloak] = loadConfig({ AUTH_PROVIDERS: 'keycloak', AUTH_KEYCLOAK_ISSUER_URL: 'https://id.example', AUTH_KEYCLOAK_CLIENT_ID: 'cms' }, '/srv/tessera').auth.providers;
    expect(keycloak).toMatchObject({ driver: 'openid', identifierKey: 'sub', emailKey: 'email', firstNameKey: 'given_name', lastNameKey: 'family_name' });
  });

  it('names every bad variable of every provider in one error, never showing a secret', () => {
    const problems = problemsOf({
      AUTH_PROVIDERS: 'hub,corp,okta,odd',
      AUTH_HUB_DRIVER: 'oauth2',
      AUTH_HUB_AUTHORIZE_URL: 'github.com/login',
      AUTH_HUB_CLIENT_SECRET: 'hub-client-secret',
      AUTH_CORP_DRIVER: 'ldap',
      AUTH_CORP_CLIENT_URL: 'http://ldap.example',
      AUTH_CORP_BIND_PASSWORD: 'bind-secret-value',
      AUTH_CORP_USER_SCOPE: 'everything',
      AUTH_CORP_USER_ATTRIBUTE: 'uid)(x=*',
      AUTH_CORP_SYNC_USER_INFO: 'maybe',
      AUTH_OKTA_DRIVER: 'saml',
      AUTH_OKTA_IDP_METADATA: 'not xml',
      AUTH_ODD_DRIVER: 'kerberos',
    });
    expect(problems.sort()).toEqual([
      'AUTH_CORP_BIND_DN: is required (got undefined)',
      'AUTH_CORP_CLIENT_URL: must be an ldap:// or ldaps:// URL of a server (host and optional port) (got "http://ldap.example")',
      'AUTH_CORP_SYNC_USER_INFO: must be true or false (got "maybe")',
      'AUTH_CORP_USER_ATTRIBUTE: must be an attribute name (letters, digits and -) (got "uid)(x=*")',
      'AUTH_CORP_USER_DN: is required (got undefined)',
      'AUTH_CORP_USER_SCOPE: must be base, one or sub (got "everything")',
      'AUTH_HUB_ACCESS_URL: is required (got undefined)',
      'AUTH_HUB_AUTHORIZE_URL: must be an absolute http:// or https:// URL (got text of 16 characters that is not a URL, not shown)',
      'AUTH_HUB_CLIENT_ID: is required (got undefined)',
      'AUTH_HUB_PROFILE_URL: is required (got undefined)',
      'AUTH_ODD_DRIVER: must be one of openid, oauth2, ldap, saml (got "kerberos")',
      'AUTH_OKTA_IDP_METADATA: must be SAML metadata XML (an EntityDescriptor) (got "not xml")',
      'AUTH_OKTA_SP_METADATA: is required (got undefined)',
    ]);
    expect(problems.join('\n')).not.toMatch(/hub-client-secret|bind-secret-value/);
  });

  it('documents every driver\'s variables in docs/config.md', () => {
    const docs = readFileSync(new URL('../../../docs/config.md', import.meta.url), 'utf8');
    for (const driver of AUTH_DRIVERS) for (const suffix of driverVariableSuffixes(driver)) expect(docs).toContain(`| \`AUTH_<NAME>_${suffix}\` |`);
  });
});

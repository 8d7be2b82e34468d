import type { ConnectionOptions } from 'node:tls';
import { Client, type Entry, escapeFilter, InvalidCredentialsError as LdapInvalidCredentials } from 'ldapts';
import type { LdapProviderConfig } from '../../config/load-config.ts';
import { InvalidCredentialsError, ServiceUnavailableError, UserSuspendedError } from '../../errors.ts';

/** How long connecting and each directory operation may take. */
const CONNECT_TIMEOUT_MS = 5_000;
const OPERATION_TIMEOUT_MS = 10_000;

/** Active Directory's userAccountControl flags that refuse a sign-in: ACCOUNTDISABLE, LOCKOUT. */
const AD_REFUSED_FLAGS = 0x2 | 0x10;

/** A directory entry that proved its password. */
export interface DirectoryUser {
  dn: string;
  /** The entry's attributes as text (first value of single-valued ones), secrets excluded. */
  attributes: Record<string, string | string[]>;
  /** The `cn` of every group under GROUP_DN that lists the user; empty without GROUP_DN. */
  groups: string[];
}

/**
 * Checks `identifier` and `password` against the directory: the service account (BIND_DN) finds exactly
 * one entry whose USER_ATTRIBUTE equals the identifier (escaped per RFC 4515, so `*`, `(`, `)` and `\`
 * are literal), then a second connection binds as that entry with the password. Only after a correct
 * password is a disabled account refused (USER_SUSPENDED), as for credentials, so guessing reveals nothing.
 */
export async function authenticate(provider: LdapProviderConfig, identifier: string, password: string): Promise<DirectoryUser> {
  // An empty password would be an "unauthenticated bind" that many servers accept (RFC 4513 §5.1.2).
  if (password === '' || identifier === '') throw new InvalidCredentialsError();
  const service = await connect(provider);
  try {
    await bindService(service, provider);
    const entry = await findUser(service, provider, identifier);
    if (!entry) {
      // The same second connection and bind as for a known person, so the answer time does not tell
      // whether the identifier exists (the bind to an entry that does not exist fails like a wrong password).
      await verifyPassword(provider, `cn=tessera-no-such-person,${provider.userDn}`, password).catch(() => {});
      throw new InvalidCredentialsError();
    }
    await verifyPassword(provider, entry.dn, password);
    if (isDisabled(entry)) throw new UserSuspendedError('User is suspended in the directory and cannot sign in.');
    const groups = provider.groupDn ? await findGroups(service, provider, entry.dn) : [];
    return { dn: entry.dn, attributes: plainAttributes(entry), groups };
  } finally {
    await service.unbind().catch(() => {});
  }
}

/** The attributes read from a user entry: the profile fields and the two account-lock markers. */
function userAttributes(provider: LdapProviderConfig): string[] {
  const profile = [provider.userAttribute, provider.emailKey, provider.firstNameKey, provider.lastNameKey].filter((name): name is string => Boolean(name));
  return [...new Set([...profile, 'cn', 'uid', 'displayName', 'objectClass', 'userAccountControl', 'pwdAccountLockedTime'])];
}

async function connect(provider: LdapProviderConfig): Promise<Client> {
  const tlsOptions: ConnectionOptions = { rejectUnauthorized: provider.tlsRejectUnauthorized, ...(provider.tlsCa ? { ca: [provider.tlsCa] } : {}) };
  // ldapts speaks TLS from the first byte whenever tlsOptions is given, so only ldaps:// gets them here.
  const secure = provider.clientUrl.startsWith('ldaps:');
  const client = new Client({ url: provider.clientUrl, connectTimeout: CONNECT_TIMEOUT_MS, timeout: OPERATION_TIMEOUT_MS, ...(secure ? { tlsOptions } : {}) });
  if (provider.startTls) {
    try {
      await client.startTLS(tlsOptions);
    } catch (error) {
      await client.unbind().catch(() => {});
      throw unavailable(provider, 'StartTLS failed', error);
    }
  }
  return client;
}

async function bindService(client: Client, provider: LdapProviderConfig): Promise<void> {
  try {
    await client.bind(provider.bindDn, provider.bindPassword);
  } catch (error) {
    throw unavailable(provider, error instanceof LdapInvalidCredentials ? 'the directory refused BIND_DN and BIND_PASSWORD' : 'the directory could not be reached', error);
  }
}

/** The one entry whose USER_ATTRIBUTE is the identifier; null for none or several. */
async function findUser(client: Client, provider: LdapProviderConfig, identifier: string): Promise<Entry | null> {
  let entries: Entry[];
  try {
    ({ searchEntries: entries } = await client.search(provider.userDn, {
      scope: provider.userScope,
      filter: escapeFilter`(${provider.userAttribute}=${identifier})`,
      attributes: userAttributes(provider),
      sizeLimit: 2,
      explicitBufferAttributes: [],
    }));
  } catch (error) {
    // More than one match exceeds sizeLimit: an identifier that names several people signs none in.
    if ((error as { code?: number }).code === 4) return null;
    throw unavailable(provider, 'searching USER_DN failed', error);
  }
  return entries.length === 1 ? entries[0]! : null;
}

async function verifyPassword(provider: LdapProviderConfig, dn: string, password: string): Promise<void> {
  const client = await connect(provider);
  try {
    await client.bind(dn, password);
  } catch (error) {
    if (error instanceof LdapInvalidCredentials) throw new InvalidCredentialsError();
    // Other refusals of a user bind (unwillingToPerform for a locked account, …) are a failed sign-in too.
    if (typeof (error as { code?: unknown }).code === 'number') throw new InvalidCredentialsError();
    throw unavailable(provider, 'the directory could not be reached', error);
  } finally {
    await client.unbind().catch(() => {});
  }
}

function isDisabled(entry: Entry): boolean {
  const flags = Number(first(entry.userAccountControl));
  if (Number.isInteger(flags) && (flags & AD_REFUSED_FLAGS) !== 0) return true;
  // OpenLDAP's password policy locks an account by setting pwdAccountLockedTime.
  return first(entry.pwdAccountLockedTime) !== undefined;
}

async function findGroups(client: Client, provider: LdapProviderConfig, userDn: string): Promise<string[]> {
  try {
    const { searchEntries } = await client.search(provider.groupDn!, {
      scope: provider.groupScope,
      filter: escapeFilter`(${provider.groupAttribute}=${userDn})`,
      attributes: ['cn'],
      sizeLimit: 500,
    });
    return searchEntries.map((entry) => first(entry.cn)).filter((cn): cn is string => typeof cn === 'string' && cn !== '');
  } catch (error) {
    throw unavailable(provider, 'searching GROUP_DN failed', error);
  }
}

function plainAttributes(entry: Entry): Record<string, string | string[]> {
  const attributes: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn') continue;
    const texts = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
    if (texts.length === 1) attributes[name] = texts[0]!;
    else if (texts.length > 1) attributes[name] = texts;
  }
  return attributes;
}

function first(value: Entry[string] | undefined): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' ? item : undefined;
}

/** A directory failure: 503 for the caller; the cause (never a password) goes to the log through `cause`. */
function unavailable(provider: LdapProviderConfig, what: string, cause: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError(`Sign-in with "${provider.name}" is unavailable: ${what}.`, {}, { cause });
}

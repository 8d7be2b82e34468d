import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'ldapts';

/** The directory tree every LDAP test starts from. */
export const SUFFIX = 'dc=tessera,dc=test';
export const SERVICE_DN = `cn=reader,ou=services,${SUFFIX}`;
export const SERVICE_PASSWORD = 'reader-secret-7f3a';
export const PEOPLE_DN = `ou=people,${SUFFIX}`;
export const GROUPS_DN = `ou=groups,${SUFFIX}`;

/** A real OpenLDAP server (Debian's slapd) on 127.0.0.1, with its own config and database in a temp folder. */
export interface TestLdapServer {
  url: string;
  /** `ldaps://127.0.0.1:<port>` when started with a certificate, else null. */
  ldapsUrl: string | null;
  /** Adds entries (LDIF-like objects) as the directory's manager. */
  add(dn: string, attributes: Record<string, string | string[]>): Promise<void>;
  modify(dn: string, attribute: string, values: string[]): Promise<void>;
  close(): Promise<void>;
}

// A slice of Active Directory's schema (userAccountControl, OID 1.2.840.113556.1.4.8), so the disabled-account
// check is tested with the attribute AD uses.
const AD_SCHEMA = `attributetype ( 1.2.840.113556.1.4.8 NAME 'userAccountControl' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.55555.1.1 NAME 'tesseraAdAccount' SUP top AUXILIARY MAY userAccountControl )
`;

const MANAGER_DN = `cn=manager,${SUFFIX}`;
const MANAGER_PASSWORD = 'manager-secret';

/** People and groups: ada (editors), grace (admins + editors), off (disabled), and "star*" to test filter escaping. */
const BASE_LDIF = `dn: ${SUFFIX}
objectClass: dcObject
objectClass: organization
dc: tessera
o: Tessera test

dn: ou=services,${SUFFIX}
objectClass: organizationalUnit
ou: services

dn: ${SERVICE_DN}
objectClass: person
cn: reader
sn: reader
userPassword: ${SERVICE_PASSWORD}

dn: ${PEOPLE_DN}
objectClass: organizationalUnit
ou: people

dn: ${GROUPS_DN}
objectClass: organizationalUnit
ou: groups
`;

/**
 * Starts slapd on a free port; non-interactive, no system configuration touched. With `tls`, it also
 * listens for ldaps:// and offers StartTLS on ldap://, with that certificate.
 */
export async function startLdapServer(options: { tls?: { key: string; cert: string } } = {}): Promise<TestLdapServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-slapd-'));
  mkdirSync(path.join(dir, 'db'));
  writeFileSync(path.join(dir, 'ad.schema'), AD_SCHEMA);
  if (options.tls) {
    writeFileSync(path.join(dir, 'key.pem'), options.tls.key);
    writeFileSync(path.join(dir, 'cert.pem'), options.tls.cert);
  }
  writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `include ${dir}/ad.schema`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      ...(options.tls ? [`TLSCertificateFile ${dir}/cert.pem`, `TLSCertificateKeyFile ${dir}/key.pem`] : []),
      'database mdb',
      `suffix "${SUFFIX}"`,
      `rootdn "${MANAGER_DN}"`,
      `rootpw ${MANAGER_PASSWORD}`,
      `directory ${dir}/db`,
      'maxsize 10485760',
      // Passwords can only be checked by binding; everything else is readable by signed-in accounts only.
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'base.ldif'), BASE_LDIF);
  const added = spawnSync('/usr/sbin/slapadd', ['-f', `${dir}/slapd.conf`, '-l', `${dir}/base.ldif`], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`);

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = options.tls ? `ldaps://127.0.0.1:${await freePort()}` : null;
  const listeners = [`${url}/`, ...(ldapsUrl ? [`${ldapsUrl}/`] : [])].join(' ');
  // -d 0 keeps slapd in the foreground (no fork), so the test owns the process and ends it.
  const slapd: ChildProcess = spawn('/usr/sbin/slapd', ['-f', `${dir}/slapd.conf`, '-h', listeners, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  slapd.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitUntilServing(url, () => slapd.exitCode !== null, () => stderr);

  const asManager = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ url });
    await client.bind(MANAGER_DN, MANAGER_PASSWORD);
    try {
      return await work(client);
    } finally {
      await client.unbind();
    }
  };
  return {
    url,
    ldapsUrl,
    add: (dn, attributes) => asManager((client) => client.add(dn, attributes)),
    modify: (dn, attribute, values) =>
      asManager(async (client) => {
        const { Change, Attribute } = await import('ldapts');
        await client.modify(dn, new Change({ operation: 'replace', modification: new Attribute({ type: attribute, values }) }));
      }),
    close: async () => {
      if (slapd.exitCode === null) {
        const exited = new Promise((resolve) => slapd.once('exit', resolve));
        slapd.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A person under PEOPLE_DN with a password (cleartext: slapd compares it on bind). */
export function person(uid: string, password: string, extra: Record<string, string | string[]> = {}): [string, Record<string, string | string[]>] {
  return [
    `uid=${uid},${PEOPLE_DN}`,
    { objectClass: ['inetOrgPerson', 'tesseraAdAccount'], uid, cn: uid, sn: `Sn-${uid}`, givenName: `Given-${uid}`, mail: `${uid}@directory.test`, userPassword: password, ...extra },
  ];
}

/** A group under GROUPS_DN whose `member` values are DNs. */
export function group(cn: string, members: string[]): [string, Record<string, string | string[]>] {
  return [`cn=${cn},${GROUPS_DN}`, { objectClass: 'groupOfNames', cn, member: members }];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url: string, exited: () => boolean, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`slapd exited: ${stderr()}`);
    const client = new Client({ url, connectTimeout: 500 });
    try {
      await client.bind(SERVICE_DN, SERVICE_PASSWORD);
      await client.unbind();
      return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`slapd did not answer on ${url}: ${stderr()}`);
}

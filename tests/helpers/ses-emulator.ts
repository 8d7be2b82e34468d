import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as sesLocal from 'aws-ses-v2-local';

/** A mail as the SES v2 emulator stores it (GET /store). */
export interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

/** A running aws-ses-v2-local on 127.0.0.1 and a way to read back what Tessera sent. */
export interface SesEmulator {
  endpoint: string;
  /** Configuration variables that point Tessera's SES transport at the emulator. */
  env: Record<string, string>;
  /** Every stored mail, oldest first. */
  emails(): Promise<StoredEmail[]>;
  /** Mails sent to `address`. */
  emailsTo(address: string): Promise<StoredEmail[]>;
  /** Waits until `count` mails to `address` are stored (2 s at most) and returns them. */
  waitForEmails(address: string, count?: number): Promise<StoredEmail[]>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

type StartServer = (config?: { host?: string; port?: number }) => Promise<Server>;

/** The package is CommonJS; depending on the loader its function is `default` or `default.default` (STACK.md). */
function startFunction(): StartServer {
  const exported = (sesLocal as unknown as { default: StartServer | { default: StartServer } }).default;
  return typeof exported === 'function' ? exported : exported.default;
}

/** Starts the emulator on a free port. */
export async function startSesEmulator(): Promise<SesEmulator> {
  const server = await startFunction()({ host: '127.0.0.1', port: 0 });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const emails = async (): Promise<StoredEmail[]> => {
    const response = await fetch(`${endpoint}/store`);
    return ((await response.json()) as { emails: StoredEmail[] }).emails;
  };
  const emailsTo = async (address: string) => (await emails()).filter((email) => email.destination.to.includes(address));
  // aws-ses-v2-local keeps its mail in one store per process, not per server: a worker running file after file
  // (isolate: false) would show this file the mail of the files before it (a registration test once counted an
  // earlier file's mail to admin@example.com as its own). A new emulator starts empty.
  await fetch(`${endpoint}/clear-store`, { method: 'POST' });
  return {
    endpoint,
    env: {
      EMAIL_TRANSPORT: 'ses',
      EMAIL_SES_ENDPOINT: endpoint,
      EMAIL_SES_REGION: 'us-east-1',
      EMAIL_SES_ACCESS_KEY_ID: 'test',
      EMAIL_SES_SECRET_ACCESS_KEY: 'test',
      EMAIL_FROM: 'Tessera <no-reply@tessera.test>',
    },
    emails,
    emailsTo,
    async waitForEmails(address, count = 1) {
      // A ceiling, not a wait: it returns as soon as the mail is there (2 s was too short beside a second suite).
      const deadline = Date.now() + 60_000;
      for (;;) {
        const found = await emailsTo(address);
        if (found.length >= count || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async clear() {
      await fetch(`${endpoint}/clear-store`, { method: 'POST' });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The first http(s) link in a mail's text body, parsed. */
export function linkIn(email: StoredEmail): URL {
  const match = /https?:\/\/\S+/.exec(email.body.text ?? '');
  if (!match) throw new Error(`no link in the mail "${email.subject}"`);
  return new URL(match[0]);
}

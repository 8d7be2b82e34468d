import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

/** One message as the test SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The connection was TLS (implicit or after STARTTLS) when the message arrived. */
  secure: boolean;
  user: string | null;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** TLS from the first byte (port 465 style); otherwise plain, with STARTTLS offered when `cert` is set. */
  secure?: boolean;
  cert?: { key: string; cert: string };
  /** Accepted user name and password; unset: no authentication offered. */
  login?: { user: string; password: string };
}

/** A self-signed certificate for 127.0.0.1 and localhost, generated now. */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

/** Starts a real SMTP server (the smtp-server package) on 127.0.0.1 and a free port. */
export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: options.secure ?? false,
    ...(options.cert ? { key: options.cert.key, cert: options.cert.cert } : {}),
    disabledCommands: [...(options.cert ? [] : ['STARTTLS']), ...(options.login ? [] : ['AUTH'])],
    authOptional: !options.login,
    // Login over plain text is what a refused-login test needs without TLS; real servers refuse it.
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.login && auth.username === options.login.user && auth.password === options.login.password) return callback(null, { user: auth.username });
      const error = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback();
      });
    },
  });
  // A client that refuses the certificate hangs up mid-handshake; that is the test's point, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { host: '127.0.0.1', port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

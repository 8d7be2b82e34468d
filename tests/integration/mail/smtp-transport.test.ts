import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { createLogger } from '../../../server/logger.ts';
import { createMailer } from '../../../server/mail/mailer.ts';
import { SmtpSendError } from '../../../server/mail/smtp-transport.ts';
import { selfSignedCertificate, startSmtpServer, type TestSmtpServer } from '../../helpers/smtp-server.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const MESSAGE = { to: 'editor@example.com', subject: 'Hello over SMTP', text: 'plain body', html: '<p>html body</p>' };
const FROM = 'Tessera <no-reply@tessera.test>';

function mailerFor(server: TestSmtpServer, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString('utf8')), done()) });
  const config = loadConfig({ NODE_ENV: 'test', EMAIL_TRANSPORT: 'smtp', EMAIL_FROM: FROM, EMAIL_SMTP_HOST: server.host, EMAIL_SMTP_PORT: String(server.port), ...env });
  const mailer = createMailer(config, createLogger({ level: 'error', style: 'raw' }, destination));
  return { mailer, lines };
}

describe('SMTP transport against a real SMTP server', () => {
  let server: TestSmtpServer | undefined;
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    await server?.close();
    app = undefined;
    server = undefined;
  });

  it('plain SMTP without authentication delivers the message with both bodies', async () => {
    server = await startSmtpServer();
    const { mailer } = mailerFor(server);
    expect(mailer.transport).toBe('smtp');
    await mailer.send(MESSAGE);
    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail).toMatchObject({ from: 'no-reply@tessera.test', to: ['editor@example.com'], secure: false, user: null });
    expect(mail!.raw).toContain('Subject: Hello over SMTP');
    expect(mail!.raw).toContain('From: Tessera <no-reply@tessera.test>');
    expect(mail!.raw).toContain('plain body');
    expect(mail!.raw).toContain('<p>html body</p>');
  });

  it('STARTTLS with a self-signed certificate trusted through EMAIL_SMTP_TLS_CA, and a login accepted', async () => {
    const cert = await selfSignedCertificate();
    server = await startSmtpServer({ cert, login: { user: 'mailer', password: 'right-password' } });
    const { mailer } = mailerFor(server, { EMAIL_SMTP_TLS_CA: cert.cert, EMAIL_SMTP_REQUIRE_TLS: 'true', EMAIL_SMTP_USER: 'mailer', EMAIL_SMTP_PASSWORD: 'right-password' });
    await mailer.send(MESSAGE);
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ secure: true, user: 'mailer' });
  });

  it('implicit TLS (EMAIL_SMTP_SECURE) with the self-signed certificate', async () => {
    const cert = await selfSignedCertificate();
    server = await startSmtpServer({ secure: true, cert });
    const { mailer } = mailerFor(server, { EMAIL_SMTP_SECURE: 'true', EMAIL_SMTP_TLS_CA: cert.cert });
    await mailer.send(MESSAGE);
    expect(server.received).toHaveLength(1);
    expect(server.received[0]!.secure).toBe(true);
  });

  it('an untrusted certificate is refused with a clear error, and nothing is delivered', async () => {
    server = await startSmtpServer({ secure: true, cert: await selfSignedCertificate() });
    const { mailer } = mailerFor(server, { EMAIL_SMTP_SECURE: 'true' });
    const error = await mailer.send(MESSAGE).then(() => null, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(SmtpSendError);
    expect((error as Error).message).toMatch(/^TLS with SMTP server 127\.0\.0\.1:\d+ failed: .*certificate/);
    expect(server.received).toHaveLength(0);
  });

  it('a refused login rejects with EAUTH and the server reply, and never shows the password', async () => {
    server = await startSmtpServer({ login: { user: 'mailer', password: 'right-password' } });
    const { mailer } = mailerFor(server, { EMAIL_SMTP_USER: 'mailer', EMAIL_SMTP_PASSWORD: 'wrong-password' });
    const error = await mailer.send(MESSAGE).then(() => null, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(SmtpSendError);
    expect(error).toMatchObject({ code: 'EAUTH', responseCode: 535 });
    expect((error as Error).message).toMatch(/^SMTP login to 127\.0\.0\.1:\d+ refused: .*535/);
    expect((error as Error).message).not.toContain('wrong-password');
    expect(server.received).toHaveLength(0);
  });

  it('a refused login during a password-reset request is logged; the request still answers 204', async () => {
    server = await startSmtpServer({ login: { user: 'mailer', password: 'right-password' } });
    const { mailer, lines } = mailerFor(server, { EMAIL_SMTP_USER: 'mailer', EMAIL_SMTP_PASSWORD: 'wrong-password' });
    app = await createTestApp({ EMAIL_TRANSPORT: 'smtp', EMAIL_SMTP_HOST: server.host, EMAIL_SMTP_PORT: String(server.port), EMAIL_SMTP_USER: 'mailer', EMAIL_SMTP_PASSWORD: 'wrong-password' });
    await app.request.post('/auth/password/request').send({ email: 'admin@example.com' }).expect(204);
    await app.context.mailer.idle();
    expect(server.received).toHaveLength(0);
    // The app's own logger is silent in tests; the same sendLater path with a listening logger shows the line.
    mailer.sendLater(() => mailer.send(MESSAGE));
    await mailer.idle();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; err: { message: string } });
    expect(logged).toHaveLength(1);
    expect(logged[0]!.msg).toBe('sending an e-mail failed');
    expect(logged[0]!.err.message).toMatch(/SMTP login to 127\.0\.0\.1:\d+ refused/);
  });
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.ts';
import { ConfigError } from '../../../server/errors.ts';
import { createLogger } from '../../../server/logger.ts';
import { readBranding } from '../../../server/mail/branding.ts';
import { createMailer } from '../../../server/mail/mailer.ts';
import { invitationMail } from '../../../server/mail/templates/invitation.ts';
import { passwordResetMail } from '../../../server/mail/templates/password-reset.ts';
import { signInLinkMail } from '../../../server/mail/templates/sign-in-link.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';

describe('outbox transport (the development default)', () => {
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-outbox-'));
    t = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL });
    await new UsersService(t.system).createOne({ email: 'outbox@example.com', password: 'outbox-password' });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is chosen when EMAIL_TRANSPORT is unset and writes one readable .eml per message', async () => {
    expect(t.context.mailer.transport).toBe('outbox');
    await t.request.post('/auth/password/request').send({ email: 'outbox@example.com' }).expect(204);
    await t.request.post('/auth/password/request').send({ email: 'nobody@example.com' }).expect(204);
    await t.context.mailer.idle();

    const files = await readdir(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(path.join(dataDir, 'outbox', files[0]!), 'utf8');
    expect(eml).toContain('From: no-reply@example.com\r\n');
    expect(eml).toContain('To: outbox@example.com\r\n');
    expect(eml).toContain('Subject: Reset your Tessera password\r\n');
    expect(eml).toContain('Content-Type: text/plain; charset=utf-8');
    expect(eml).toContain('Content-Type: text/html; charset=utf-8');
    expect(eml).toMatch(new RegExp(`Choose a new password: ${PUBLIC_URL}/admin/reset-password\\?token=[\\w.-]+`));
  });

  it('logs each message with its recipient, subject, file and text', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').trim().split('\n')));
    const logger = createLogger({ level: 'info', style: 'raw' }, stream);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, EMAIL_FROM: 'Projeto <projeto@example.com>' });
    const mailer = createMailer(config, logger);
    await mailer.send({ to: 'reader@example.com', subject: 'Olá — ação necessária', html: '<p>Oi</p>', text: 'Oi, link: http://x.test/a' });

    const entry = JSON.parse(lines.find((line) => line.includes('reader@example.com'))!);
    expect(entry).toMatchObject({ msg: 'e-mail to reader@example.com written to the outbox', mail: { to: 'reader@example.com', subject: 'Olá — ação necessária' }, text: 'Oi, link: http://x.test/a' });
    const eml = await readFile(entry.mail.file, 'utf8');
    expect(eml).toContain('From: Projeto <projeto@example.com>\r\n');
    expect(eml).toContain(`Subject: =?UTF-8?B?${Buffer.from('Olá — ação necessária').toString('base64')}?=\r\n`);
    expect(eml).toContain('Oi, link: http://x.test/a');
  });
});

describe('e-mail templates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(() => t.close());

  it('brand every mail with the project name, logo (an asset URL under PUBLIC_URL) and colour from settings', async () => {
    const logo = await t.system.db.insertInto('tessera_files').values({ storage: 'local', filename_download: 'logo.png' }).returning('id').executeTakeFirstOrThrow();
    await t.system.db.updateTable('tessera_settings').set({ project_name: 'Acme CMS', project_logo: logo.id, project_color: '#12AB34' }).execute();
    const brand = await readBranding(t.system.db, PUBLIC_URL);
    expect(brand).toEqual({ name: 'Acme CMS', descriptor: null, projectUrl: null, logoUrl: `${PUBLIC_URL}/assets/${logo.id}`, foregroundUrl: null, backgroundUrl: null, faviconUrl: null, color: '#12AB34' });

    const mails = [
      passwordResetMail(brand, { to: 'a@example.com', url: 'https://x.test/r?token=1', validForMs: 3_600_000 }),
      invitationMail(brand, { to: 'a@example.com', url: 'https://x.test/i?token=1', validForMs: 7 * 86_400_000 }),
      signInLinkMail(brand, { to: 'a@example.com', url: 'https://x.test/s?token=1&email=a', host: 'tessera.test' }),
    ];
    for (const mail of mails) {
      expect(mail.html).toContain(`<img src="${PUBLIC_URL}/assets/${logo.id}" alt="Acme CMS"`);
      expect(mail.html).toContain('background:#12AB34');
      expect(mail.text.startsWith('Acme CMS\n')).toBe(true);
      expect(mail.text).toMatch(/https:\/\/x\.test\/\w\?token=1/);
    }
    expect(mails.map((mail) => mail.subject)).toEqual(['Reset your Acme CMS password', 'You have been invited to Acme CMS', 'Sign in to tessera.test']);
    expect(mails[0]!.text).toContain('It works once, for 1 hour.');
    expect(mails[1]!.text).toContain('The link works for 7 days.');
    expect(mails[2]!.html).toContain('href="https://x.test/s?token=1&amp;email=a"');
  });

  it('put the project descriptor in the header and the project URL in the footer of every mail', async () => {
    await t.system.db.updateTable('tessera_settings').set({ project_name: 'Acme CMS', project_descriptor: 'News & views', project_url: 'https://acme.example/' }).execute();
    const brand = await readBranding(t.system.db, PUBLIC_URL);
    expect(brand).toMatchObject({ descriptor: 'News & views', projectUrl: 'https://acme.example/' });
    const mails = [
      passwordResetMail(brand, { to: 'a@example.com', url: 'https://x.test/r?token=1', validForMs: 3_600_000 }),
      invitationMail(brand, { to: 'a@example.com', url: 'https://x.test/i?token=1', validForMs: 7 * 86_400_000 }),
      signInLinkMail(brand, { to: 'a@example.com', url: 'https://x.test/s?token=1&email=a', host: 'tessera.test' }),
    ];
    for (const mail of mails) {
      const header = mail.html.indexOf('News &amp; views');
      expect(header).toBeGreaterThan(-1);
      expect(header).toBeLessThan(mail.html.indexOf('<h1'));
      expect(mail.html).toMatch(/<a href="https:\/\/acme\.example\/"[^>]*>Acme CMS<\/a><\/p>\s*<\/td><\/tr><\/table>\s*<\/body>/);
      expect(mail.text.startsWith('Acme CMS\nNews & views\n')).toBe(true);
      expect(mail.text.trimEnd().endsWith('Acme CMS: https://acme.example/')).toBe(true);
    }

    await t.system.db.updateTable('tessera_settings').set({ project_descriptor: null, project_url: 'javascript:alert(1)' }).execute();
    const plain = await readBranding(t.system.db, PUBLIC_URL);
    expect(plain).toMatchObject({ descriptor: null, projectUrl: null });
    expect(invitationMail(plain, { to: 'a@example.com', url: 'https://x.test/i', validForMs: 3_600_000 }).html).not.toContain('javascript:');
  });

  it('escapes every interpolated value and falls back to the default colour for anything but a hex colour', async () => {
    await t.system.db.updateTable('tessera_settings').set({ project_name: '<script>alert("x")</script> & Co', project_logo: null, project_color: 'red;background:url(https://evil.test)' }).execute();
    const brand = await readBranding(t.system.db, PUBLIC_URL);
    expect(brand).toMatchObject({ logoUrl: null, color: '#6644FF' });
    const mail = invitationMail(brand, { to: '"><img src=x onerror=alert(1)>@example.com', url: 'https://x.test/i?token="><script>', validForMs: 3_600_000 });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('evil.test');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.com');
    expect(mail.html).toContain('href="https://x.test/i?token=&quot;&gt;&lt;script&gt;"');
  });
});

describe('e-mail configuration', () => {
  it('reads the SES settings and refuses bad values, naming each variable', () => {
    const config = loadConfig({ EMAIL_TRANSPORT: 'ses', EMAIL_SES_REGION: 'eu-west-1', EMAIL_SES_ENDPOINT: 'http://127.0.0.1:8005', EMAIL_SES_ACCESS_KEY_ID: 'id', EMAIL_SES_SECRET_ACCESS_KEY: 'secret', PASSWORD_RESET_TOKEN_TTL: '30m' });
    expect(config.mail).toMatchObject({ transport: 'ses', from: 'no-reply@example.com', ses: { region: 'eu-west-1', endpoint: 'http://127.0.0.1:8005', accessKeyId: 'id', secretAccessKey: 'secret' } });
    expect(config.passwordReset).toEqual({ tokenTtlMs: 1_800_000, urlAllowList: [] });
    expect(config.invite.tokenTtlMs).toBe(7 * 86_400_000);

    let error: unknown;
    try {
      loadConfig({ EMAIL_TRANSPORT: 'sendmail', EMAIL_SES_ENDPOINT: 'localhost:8005', EMAIL_SES_ACCESS_KEY_ID: 'id-without-secret', PASSWORD_RESET_URL_ALLOW_LIST: 'https://ok.example.com/r, javascript:alert(1)' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['EMAIL_TRANSPORT', 'EMAIL_SES_ENDPOINT', 'EMAIL_SES_ACCESS_KEY_ID', 'PASSWORD_RESET_URL_ALLOW_LIST']) expect(problems).toContain(name);
  });
});

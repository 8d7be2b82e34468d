import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import type { MailMessage, MailTransport } from './message.ts';

/**
 * The development transport: nothing is delivered. Each message becomes one `.eml` file in `folder`
 * (plain MIME text, readable in an editor and openable in a mail client) and a log line with its text.
 */
export function createOutboxTransport(folder: string, logger: Logger): MailTransport {
  return {
    name: 'outbox',
    async send(message, from) {
      await mkdir(folder, { recursive: true });
      const now = new Date();
      const file = path.join(folder, `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, toEml(message, from, now), { encoding: 'utf8', flag: 'wx' });
      logger.info({ mail: { to: message.to, subject: message.subject, file }, text: message.text }, `e-mail to ${message.to} written to the outbox`);
    },
  };
}

/** A multipart/alternative message; 8bit UTF-8 parts keep the bodies readable as they are. */
export function toEml(message: MailMessage, from: string, date: Date): string {
  const boundary = `tessera-${randomBytes(12).toString('hex')}`;
  return [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${randomBytes(16).toString('hex')}@tessera.outbox>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    message.text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    message.html,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** Headers are ASCII; anything else goes in an RFC 2047 encoded word. */
function encodeHeader(value: string): string {
  const oneLine = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}

import type { AppContext } from '../../app-context.ts';
import { InvalidPayloadError } from '../../errors.ts';
import { escapeHtml } from '../../mail/escape-html.ts';
import type { DirectusAccountability } from './accountability.ts';
import type { ServiceOptions } from './items-facade.ts';

/** What MailService.send takes (Directus's, nodemailer's names): a body as text, html or the `base` template. */
export interface ExtensionMail {
  to: string | string[] | { address: string } | Array<string | { address: string }>;
  subject?: string;
  text?: string;
  html?: string;
  /** Only Directus's `base` template: `data.html` (or `data.text`) in the message body. */
  template?: { name: string; data?: Record<string, unknown> };
}

function recipients(to: unknown): string[] {
  const list = Array.isArray(to) ? to : typeof to === 'string' ? to.split(',') : [to];
  const addresses = list.map((entry) => (typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as { address?: unknown }).address : undefined));
  if (addresses.some((address) => typeof address !== 'string')) throw new InvalidPayloadError('"to" must be addresses.', { field: 'to' });
  const cleaned = (addresses as string[]).map((address) => address.trim()).filter((address) => address !== '');
  if (cleaned.length === 0) throw new InvalidPayloadError('"to" must name at least one address.', { field: 'to' });
  // A line break would start a new header in the message.
  const invalid = cleaned.find((address) => !/^[^\s@]+@[^\s@]+$/.test(address));
  if (invalid !== undefined) throw new InvalidPayloadError(`"to" holds an invalid address: ${JSON.stringify(invalid)}.`, { field: 'to' });
  return cleaned;
}

/** The html and text bodies of a message: each given one, or the other derived (text shown preformatted). */
function bodies(mail: ExtensionMail): { html: string; text: string } {
  let { html, text } = mail;
  if (mail.template !== undefined) {
    if (mail.template?.name !== 'base') throw new InvalidPayloadError('Only the "base" template is available; send "html" or "text" otherwise.', { field: 'template.name' });
    const data = mail.template.data ?? {};
    html ??= typeof data.html === 'string' ? data.html : undefined;
    text ??= typeof data.text === 'string' ? data.text : undefined;
  }
  if (html !== undefined && typeof html !== 'string') throw new InvalidPayloadError('"html" must be a string.', { field: 'html' });
  if (text !== undefined && typeof text !== 'string') throw new InvalidPayloadError('"text" must be a string.', { field: 'text' });
  if (html === undefined && text === undefined) throw new InvalidPayloadError('A message needs "text", "html" or a template.', { field: 'text' });
  return { html: html ?? `<pre style="font-family:inherit;white-space:pre-wrap">${escapeHtml(text)}</pre>`, text: text ?? '' };
}

/** Directus's MailService over Tessera's mailer (EMAIL_TRANSPORT: outbox, SMTP or SES); one message per recipient. */
export class ExtensionMailService {
  readonly accountability: DirectusAccountability | null;
  readonly schema: unknown;
  readonly #app: AppContext;

  constructor(app: AppContext, options: ServiceOptions = {}) {
    this.#app = app;
    this.accountability = options.accountability ?? null;
    this.schema = options.schema;
  }

  /** Sends now; rejects when the transport fails. Answers null (there is no transport report to pass on). */
  async send(mail: ExtensionMail): Promise<null> {
    if (typeof mail !== 'object' || mail === null) throw new InvalidPayloadError('Pass the message as an object.');
    const to = recipients(mail.to);
    const subject = mail.subject ?? '';
    if (typeof subject !== 'string') throw new InvalidPayloadError('"subject" must be a string.', { field: 'subject' });
    const { html, text } = bodies(mail);
    for (const address of to) await this.#app.mailer.send({ to: address, subject, html, text });
    return null;
  }
}

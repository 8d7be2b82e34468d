import { marked } from 'marked';
import { escapeHtml } from '../../mail/escape-html.ts';
import type { OperationHandler } from '../flow-types.ts';

/** Sends options.body (markdown, or plain text when type is not markdown) to each of options.to (Directus `mail`). */
export const mail: OperationHandler = async (options, { app }) => {
  const to = (Array.isArray(options.to) ? options.to : String(options.to ?? '').split(',')).map((entry) => String(entry).trim()).filter(Boolean);
  if (to.length === 0) throw new Error('"to" must name at least one address.');
  const body = String(options.body ?? '');
  const html = options.type === 'wysiwyg' ? body : options.type === 'markdown' || options.type === undefined ? await marked.parse(body) : `<pre>${escapeHtml(body)}</pre>`;
  for (const address of to) await app.mailer.send({ to: address, subject: String(options.subject ?? ''), html, text: body });
  return null;
};

import { marked, type Tokens } from 'marked';
import type { Branding } from '../branding.ts';
import { escapeHtml } from '../escape-html.ts';
import type { MailMessage } from '../message.ts';
import { renderHtml, renderText, type MailContent } from './layout.ts';

const SAFE_LINK = /^(?:https?:|mailto:)/i;

/**
 * Markdown to HTML for a message someone else wrote: raw HTML is shown as text, and only http(s) and
 * mailto links or images survive (no javascript: or data: URLs).
 */
export function renderMessageMarkdown(markdown: string): string {
  const renderer = new marked.Renderer();
  renderer.html = ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text);
  const link = renderer.link.bind(renderer);
  renderer.link = (token: Tokens.Link) => (SAFE_LINK.test(token.href) ? link(token) : escapeHtml(token.text));
  renderer.image = (token: Tokens.Image) => (/^https?:/i.test(token.href) ? `<img src="${escapeHtml(token.href)}" alt="${escapeHtml(token.text)}" style="max-width:100%">` : escapeHtml(token.text));
  return marked.parse(markdown, { renderer, async: false, gfm: true });
}

/** The e-mail telling a user about a notification, with a link to the item in the admin when there is one. */
export function notificationMail(brand: Branding, input: { to: string; subject: string; message: string | null; url: string }): MailMessage {
  const content: MailContent = {
    heading: input.subject,
    paragraphs: [],
    action: { label: 'Open in Tessera', url: input.url },
    footer: 'You receive these e-mails because e-mail notifications are on in your profile.',
  };
  const text = renderText(brand, { ...content, paragraphs: input.message ? [input.message] : [] });
  const body = input.message ? `<div style="margin:0 0 16px">${renderMessageMarkdown(input.message)}</div>` : '';
  // The layout escapes paragraphs, so the rendered (already safe) markdown goes in after the heading.
  const html = renderHtml(brand, content).replace('</h1>\n', `</h1>\n${body}`);
  return { to: input.to, subject: input.subject, html, text };
}

import type { Branding } from '../branding.ts';
import { escapeHtml } from '../escape-html.ts';

/** The parts every Tessera e-mail has: a heading, a few paragraphs, one button, a closing note. */
export interface MailContent {
  heading: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footer: string;
  /** The line above the button's address, for mail clients that show no button (English by default). */
  copyHint?: string;
}

/**
 * The HTML body: a card with the project's logo (or name) and descriptor in the header, its colour on the
 * button, and the project's name linking to its URL in the footer. All values escaped.
 */
export function renderHtml(brand: Branding, content: MailContent): string {
  const color = escapeHtml(brand.color);
  const header = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="40" style="display:block;height:40px;border:0">`
    : `<span style="font-size:20px;font-weight:600;color:${color}">${escapeHtml(brand.name)}</span>`;
  const descriptor = brand.descriptor ? `<div style="margin-top:4px;font-size:13px;color:#4f5464">${escapeHtml(brand.descriptor)}</div>` : '';
  const signature = brand.projectUrl
    ? `<a href="${escapeHtml(brand.projectUrl)}" style="color:#8196b1">${escapeHtml(brand.name)}</a>`
    : escapeHtml(brand.name);
  const paragraphs = content.paragraphs.map((text) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.heading)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#172940">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border-top:4px solid ${color}">
<tr><td style="padding:24px 32px 0">${header}${descriptor}</td></tr>
<tr><td style="padding:24px 32px;font-size:15px;line-height:1.5">
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(content.heading)}</h1>
${paragraphs}
<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;background:${color};color:#ffffff;text-decoration:none;border-radius:4px;font-weight:600">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4f5464">${escapeHtml(content.copyHint ?? 'If the button does not work, copy this address into your browser:')}<br><a href="${escapeHtml(content.action.url)}" style="color:${color};word-break:break-all">${escapeHtml(content.action.url)}</a></p>
<p style="margin:0;font-size:13px;color:#4f5464">${escapeHtml(content.footer)}</p>
</td></tr>
</table>
<p style="font-size:12px;color:#8196b1">${signature}</p>
</td></tr></table>
</body>
</html>
`;
}

/** The plain-text twin of renderHtml. */
export function renderText(brand: Branding, content: MailContent): string {
  const header = brand.descriptor ? [brand.name, brand.descriptor] : [brand.name];
  const footer = brand.projectUrl ? [`${brand.name}: ${brand.projectUrl}`, ''] : [];
  return [...header, '', content.heading, '', ...content.paragraphs.flatMap((text) => [text, '']), `${content.action.label}: ${content.action.url}`, '', content.footer, '', ...footer].join('\n');
}

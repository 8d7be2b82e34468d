import type { Branding } from '../branding.ts';
import type { MailMessage } from '../message.ts';
import { renderHtml, renderText, type MailContent } from './layout.ts';

/** The e-mail with a one-time sign-in link (valid 24 hours, SPEC §9). */
export function signInLinkMail(brand: Branding, input: { to: string; url: string; host: string }): MailMessage {
  const content: MailContent = {
    heading: `Sign in to ${input.host}`,
    paragraphs: [`Use the link below to sign in to ${brand.name} as ${input.to}. It works once, for 24 hours.`],
    action: { label: 'Sign in', url: input.url },
    footer: 'If you did not ask for this e-mail, you can safely ignore it.',
  };
  return { to: input.to, subject: `Sign in to ${input.host}`, html: renderHtml(brand, content), text: renderText(brand, content) };
}

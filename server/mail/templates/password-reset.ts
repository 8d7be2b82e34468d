import type { Branding } from '../branding.ts';
import type { MailMessage } from '../message.ts';
import { renderHtml, renderText, type MailContent } from './layout.ts';
import { describeDuration } from './describe-duration.ts';

/** The e-mail with a password-reset link. */
export function passwordResetMail(brand: Branding, input: { to: string; url: string; validForMs: number }): MailMessage {
  const content: MailContent = {
    heading: 'Reset your password',
    paragraphs: [
      `Someone asked to reset the password of the ${brand.name} account for ${input.to}.`,
      `The link below sets a new password. It works once, for ${describeDuration(input.validForMs)}.`,
    ],
    action: { label: 'Choose a new password', url: input.url },
    footer: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  };
  return { to: input.to, subject: `Reset your ${brand.name} password`, html: renderHtml(brand, content), text: renderText(brand, content) };
}

import type { Branding } from '../branding.ts';
import type { MailMessage } from '../message.ts';
import { describeDuration } from './describe-duration.ts';
import { renderHtml, renderText, type MailContent } from './layout.ts';

/** The e-mail asking someone who registered (POST /users/register) to confirm their address. */
export function registrationMail(brand: Branding, input: { to: string; url: string; validForMs: number }): MailMessage {
  const content: MailContent = {
    heading: `Confirm your e-mail address for ${brand.name}`,
    paragraphs: [
      `An account for ${input.to} was registered in ${brand.name}.`,
      `Confirm the address to activate it. The link works for ${describeDuration(input.validForMs)}.`,
    ],
    action: { label: 'Confirm the address', url: input.url },
    footer: 'If you did not register, ignore this e-mail: the account stays inactive.',
  };
  return { to: input.to, subject: `Confirm your e-mail address for ${brand.name}`, html: renderHtml(brand, content), text: renderText(brand, content) };
}

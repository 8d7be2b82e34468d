import type { Branding } from '../branding.ts';
import type { MailMessage } from '../message.ts';
import { describeDuration } from './describe-duration.ts';
import { renderHtml, renderText, type MailContent } from './layout.ts';

/** The e-mail inviting someone to a project. */
export function invitationMail(brand: Branding, input: { to: string; url: string; validForMs: number }): MailMessage {
  const content: MailContent = {
    heading: `You have been invited to ${brand.name}`,
    paragraphs: [
      `An account for ${input.to} has been created in ${brand.name}.`,
      `Accept the invitation by choosing a password. The link works for ${describeDuration(input.validForMs)}.`,
    ],
    action: { label: 'Accept the invitation', url: input.url },
    footer: 'If you did not expect this invitation, ignore this e-mail.',
  };
  return { to: input.to, subject: `You have been invited to ${brand.name}`, html: renderHtml(brand, content), text: renderText(brand, content) };
}

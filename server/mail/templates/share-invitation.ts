import type { Branding } from '../branding.ts';
import type { MailMessage } from '../message.ts';
import { renderHtml, renderText, type MailContent } from './layout.ts';

/** The languages a share invitation is written in. */
export type ShareMailLanguage = 'en-US' | 'pt-BR';

/** Picks the mail's language from a BCP 47 tag (the recipient's or the project's): Portuguese or English. */
export function shareMailLanguage(tag: string | null | undefined): ShareMailLanguage {
  return typeof tag === 'string' && /^pt(?:-|$)/i.test(tag) ? 'pt-BR' : 'en-US';
}

interface ShareInvitationInput {
  to: string;
  /** Who invites: their name, else their e-mail. */
  inviter: string;
  /** The shared item's name (the share's name, else the collection and key). */
  item: string;
  url: string;
  language: ShareMailLanguage;
}

function content(brand: Branding, input: ShareInvitationInput): { subject: string; body: MailContent } {
  if (input.language === 'pt-BR') {
    return {
      subject: `${input.inviter} compartilhou um item com você`,
      body: {
        heading: `${input.inviter} compartilhou um item com você`,
        paragraphs: [`${input.inviter} convidou você para ver “${input.item}” em ${brand.name}.`, 'Abra o link para ver o item. Pode ser que ele peça uma senha, que quem compartilhou informará.'],
        action: { label: 'Ver o item', url: input.url },
        footer: 'Se você não esperava este e-mail, pode ignorá-lo.',
        copyHint: 'Se o botão não funcionar, copie este endereço no seu navegador:',
      },
    };
  }
  return {
    subject: `${input.inviter} shared an item with you`,
    body: {
      heading: `${input.inviter} shared an item with you`,
      paragraphs: [`${input.inviter} invited you to view “${input.item}” in ${brand.name}.`, 'Open the link to see it. It may ask for a password, which the person who shared it will give you.'],
      action: { label: 'View the item', url: input.url },
      footer: 'If you did not expect this e-mail, you can ignore it.',
    },
  };
}

/** The e-mail `POST /shares/invite` sends: a link to the share's public page, in en-US or pt-BR. */
export function shareInvitationMail(brand: Branding, input: ShareInvitationInput): MailMessage {
  const { subject, body } = content(brand, input);
  return { to: input.to, subject, html: renderHtml(brand, body).replace('<html lang="en">', `<html lang="${input.language}">`), text: renderText(brand, body) };
}

import { describe, expect, it } from 'vitest';
import { shareInvitationMail, shareMailLanguage } from '../../../server/mail/templates/share-invitation.ts';

const brand = { name: 'Redação <Sul>', descriptor: null, projectUrl: null, logoUrl: null, foregroundUrl: null, backgroundUrl: null, faviconUrl: null, color: '#6644FF' };

describe('the share invitation e-mail', () => {
  it('picks Portuguese for any pt tag, English otherwise', () => {
    expect(['pt-BR', 'pt', 'pt-PT', 'PT-br'].map(shareMailLanguage)).toEqual(['pt-BR', 'pt-BR', 'pt-BR', 'pt-BR']);
    expect(['en-US', 'de', 'ptx', '', null, undefined].map(shareMailLanguage)).toEqual(['en-US', 'en-US', 'en-US', 'en-US', 'en-US', 'en-US']);
  });

  it('is written wholly in the chosen language, the link and names escaped in HTML', () => {
    const input = { to: 'a@example.com', inviter: 'Ana <b>', item: 'Festa & porto', url: 'http://tessera.test/admin/shared/1?a=1&b=2' };
    const portuguese = shareInvitationMail(brand, { ...input, language: 'pt-BR' });
    expect(portuguese.subject).toBe('Ana <b> compartilhou um item com você');
    expect(portuguese.text).toContain('Ana <b> convidou você para ver “Festa & porto” em Redação <Sul>.');
    expect(portuguese.text).toContain('Ver o item: http://tessera.test/admin/shared/1?a=1&b=2');
    expect(portuguese.html).toContain('<html lang="pt-BR">');
    expect(portuguese.html).toContain('Ana &lt;b&gt;');
    expect(portuguese.html).toContain('href="http://tessera.test/admin/shared/1?a=1&amp;b=2"');
    expect(portuguese.html).not.toMatch(/If the button|View the item|invited you/);
    const english = shareInvitationMail(brand, { ...input, language: 'en-US' });
    expect(english.subject).toBe('Ana <b> shared an item with you');
    expect(english.html).toContain('If the button does not work');
  });
});

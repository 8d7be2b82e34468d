/**
 * Normalises an e-mail address as SPEC §5 says: trimmed, lowercased, and anything after a comma in
 * the domain dropped (`a@b.com,c.com` → `a@b.com`).
 */
export function normalizeEmail(email: string): string {
  const lowered = email.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  if (at < 0) return lowered;
  const domain = lowered.slice(at + 1).split(',')[0] ?? '';
  return `${lowered.slice(0, at)}@${domain.trim()}`;
}

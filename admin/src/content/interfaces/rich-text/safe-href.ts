/** Addresses a link may have: web, mail and phone addresses, and addresses relative to the site. */
export function isSafeHref(href: string): boolean {
  return /^(https?:|mailto:|tel:|\/|#|\?)/i.test(href) || !/^[a-z][a-z0-9+.-]*:/i.test(href);
}

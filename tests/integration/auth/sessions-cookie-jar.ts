/** A cookie as a response set it. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: string[];
}

/** Parses a response's Set-Cookie headers (superagent gives an array or nothing). */
export function parseSetCookies(header: string | string[] | undefined): SetCookie[] {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const equals = pair.indexOf('=');
    return { name: pair.slice(0, equals), value: pair.slice(equals + 1), attributes };
  });
}

/** A minimal cookie jar for driving pages with plain HTTP: keeps what responses set, sends it back. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Takes in a response's Set-Cookie headers; expired or emptied cookies are dropped. */
  store(header: string | string[] | undefined): void {
    for (const cookie of parseSetCookies(header)) {
      const expired = cookie.value === '' || cookie.attributes.some((attribute) => /^expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired) this.#cookies.delete(cookie.name);
      else this.#cookies.set(cookie.name, cookie.value);
    }
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  set(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  /** The Cookie request header. */
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

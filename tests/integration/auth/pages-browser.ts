import type { TestApp } from '../../helpers/test-app.ts';
import { CookieJar } from './sessions-cookie-jar.ts';

/** The value of a form field in server-rendered HTML. */
export function fieldValue(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no field ${name} in page`);
  return match[1]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}

/**
 * A browser without JavaScript, driven over plain HTTP: it keeps cookies, follows nothing by itself
 * and posts forms url-encoded, as a real form submission does.
 */
export class PageBrowser {
  readonly jar = new CookieJar();
  readonly #t: TestApp;

  constructor(t: TestApp) {
    this.#t = t;
  }

  async get(path: string) {
    const response = await this.#t.request.get(path).set('Cookie', this.jar.header()).redirects(0);
    this.jar.store(response.headers['set-cookie']);
    return response;
  }

  async post(path: string, fields: Record<string, string>) {
    const response = await this.#t.request.post(path).set('Cookie', this.jar.header()).type('form').send(fields).redirects(0);
    this.jar.store(response.headers['set-cookie']);
    return response;
  }

  /** Opens the sign-in page and returns its CSRF token. */
  async csrfToken(): Promise<string> {
    const page = await this.get('/auth/signin');
    return fieldValue(page.text, 'csrfToken');
  }
}

/** A minimal JSON client for the Tessera REST API used by the benchmark's setup steps (not the load itself). */
export interface Api {
  base: string;
  token: string;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Thrown for any non-2xx answer; carries the status and the body so failures are loud and readable. */
export class ApiError extends Error {
  readonly status: number;
  constructor(method: string, path: string, status: number, body: string) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 2000)}`);
    this.status = status;
  }
}

/** One request; returns the parsed JSON body (`undefined` for 204). */
export async function request<T = unknown>(base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  if (!response.ok) throw new ApiError(method, path, response.status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs in and returns a client that sends the admin bearer token. */
export async function signIn(base: string, email: string, password: string): Promise<Api> {
  const { data } = await request<{ data: { access_token: string } }>(base, 'POST', '/auth/login', { body: { email, password } });
  const token = data.access_token;
  return { base, token, call: (method, path, body) => request(base, method, path, { token, body }) };
}

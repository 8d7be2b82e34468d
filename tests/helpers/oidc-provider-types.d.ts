// oidc-provider 9 ships no type declarations; this covers what tests/helpers/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ProviderClient {
    grantTypeAllowed(grantType: string): boolean;
  }

  export interface ProviderAccount {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export interface ProviderConfiguration {
    clients?: Array<Record<string, unknown>>;
    findAccount?: (ctx: unknown, id: string) => Promise<ProviderAccount | undefined>;
    issueRefreshToken?: (ctx: unknown, client: ProviderClient) => Promise<boolean>;
    claims?: Record<string, string[]>;
    features?: Record<string, unknown>;
    cookies?: { keys: string[] };
    [option: string]: unknown;
  }

  /** The part of oidc-provider's Koa context a middleware of the tests reads. */
  export interface ProviderMiddlewareContext {
    path: string;
    body: unknown;
    oidc?: { route?: string };
  }

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (ctx: ProviderMiddlewareContext, next: () => Promise<void>) => Promise<void>): void;
  }
}

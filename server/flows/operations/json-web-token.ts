import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import type { OperationHandler } from '../flow-types.ts';

/** Signs, verifies or decodes a JWT with options.secret (HS256 by default) (Directus `json-web-token`). */
export const jsonWebToken: OperationHandler = async (options) => {
  const secret = () => new TextEncoder().encode(String(options.secret ?? ''));
  if (options.operation === 'decode') return decodeJwt(String(options.token ?? ''));
  if (options.operation === 'verify') return (await jwtVerify(String(options.token ?? ''), secret())).payload;
  if (options.operation === 'sign') {
    const payload = (typeof options.payload === 'string' ? JSON.parse(options.payload) : options.payload ?? {}) as Record<string, unknown>;
    const signOptions = (options.options ?? {}) as { expiresIn?: string | number; algorithm?: string };
    const jwt = new SignJWT(payload as never).setProtectedHeader({ alg: signOptions.algorithm ?? 'HS256' }).setIssuedAt();
    if (signOptions.expiresIn !== undefined) jwt.setExpirationTime(signOptions.expiresIn);
    return jwt.sign(secret());
  }
  throw new Error('"operation" must be sign, verify or decode.');
};

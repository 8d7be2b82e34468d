import { createError, ForbiddenError as DirectusForbiddenError, InvalidPayloadError as DirectusInvalidPayloadError } from '@directus/errors';
import { describe, expect, it } from 'vitest';
import { appWithErrorHandler } from '../../helpers/error-app.ts';

const appWith = appWithErrorHandler;

const throwing = (error: unknown) => appWith(() => {
  throw error;
});

/**
 * Errors thrown by extension code (docs/extensions-context.md): those made with @directus/errors answer
 * their own status and code in Tessera's envelope, http-errors style ones their status and message.
 */
describe('errorHandler with errors of extensions', () => {
  it("answers a createError error with its status, code, message and extensions", async () => {
    const OutOfStock = createError<{ sku: string }>('OUT_OF_STOCK', ({ sku }) => `"${sku}" is out of stock.`, 409);
    const { agent, lines } = throwing(new OutOfStock({ sku: 'A-1' }));
    const response = await agent.post('/shop/order');
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ errors: [{ message: '"A-1" is out of stock.', extensions: { code: 'OUT_OF_STOCK', sku: 'A-1' } }] });
    expect(lines).toEqual([]);
  });

  it("answers Directus's own error classes with their status and code", async () => {
    const forbidden = await throwing(new DirectusForbiddenError()).agent.get('/custom');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN' });
    const invalid = await throwing(new DirectusInvalidPayloadError({ reason: '"title" is required' })).agent.post('/custom');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].message).toContain('"title" is required');
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', reason: '"title" is required' });
  });

  it('keeps the code of a Directus error whose status a body parser error would map to another code', async () => {
    const NotHere = createError('ITEM_GONE', 'The item is gone.', 404);
    const response = await throwing(new NotHere()).agent.get('/custom');
    expect(response.status).toBe(404);
    expect(response.body.errors[0]).toEqual({ message: 'The item is gone.', extensions: { code: 'ITEM_GONE' } });
  });

  it('hides the message and extensions of a 5xx Directus error and logs it', async () => {
    const Broken = createError<{ secret: string }>('UPSTREAM_BROKEN', 'upstream said: secret detail', 502);
    const { agent, lines } = throwing(new Broken({ secret: 'token-123' }));
    const response = await agent.get('/custom').set('X-Request-Id', 'req-9');
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ errors: [{ message: 'An unexpected error occurred.', extensions: { code: 'UPSTREAM_BROKEN' } }] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, requestId: 'req-9', msg: 'unexpected error' });
  });

  it('recognises a Directus error by its shape (a bundled copy of the package is another class)', async () => {
    const bundled = Object.assign(new Error('Quota reached.'), { name: 'DirectusError', status: 429, code: 'QUOTA', extensions: { limit: 5 } });
    const response = await throwing(bundled).agent.get('/custom');
    expect(response.status).toBe(429);
    expect(response.body.errors[0]).toEqual({ message: 'Quota reached.', extensions: { code: 'QUOTA', limit: 5 } });
  });

  it('answers an exposed http-errors error (Koa ctx.throw) with its status and message', async () => {
    const { agent, lines } = appWith((ctx) => ctx.throw(409, 'Already booked.'));
    const response = await agent.post('/custom');
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ errors: [{ message: 'Already booked.', extensions: { code: 'CONFLICT' } }] });
    expect(lines).toEqual([]);
    const teapot = await appWith((ctx) => ctx.throw(418)).agent.get('/');
    expect(teapot.status).toBe(418);
    expect(teapot.body.errors[0].extensions).toEqual({ code: 'I_M_A_TEAPOT' });
  });

  it('answers an error with statusCode and expose: true with that status', async () => {
    const error = Object.assign(new Error('Payment required first.'), { statusCode: 402, expose: true });
    const response = await throwing(error).agent.get('/');
    expect(response.status).toBe(402);
    expect(response.body.errors[0]).toEqual({ message: 'Payment required first.', extensions: { code: 'PAYMENT_REQUIRED' } });
  });

  it('still hides an unexposed error with a status behind a generic 500', async () => {
    const error = Object.assign(new Error('internal detail'), { status: 409, expose: false });
    const { agent, lines } = throwing(error);
    const response = await agent.get('/');
    expect(response.status).toBe(500);
    expect(JSON.stringify(response.body)).not.toContain('internal detail');
    expect(lines).toHaveLength(1);
  });
});

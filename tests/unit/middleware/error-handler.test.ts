import { describe, expect, it } from 'vitest';
import { appWithErrorHandler } from '../../helpers/error-app.ts';
import { ForbiddenError, InvalidPayloadError, RecordNotUniqueError } from '../../../server/errors.ts';

/** A Koa app whose only route throws `error`, with the log lines it wrote. */
function appThrowing(error: unknown) {
  return appWithErrorHandler(() => {
    throw error;
  });
}

/** An error shaped like those body parsers (http-errors) throw. */
const httpError = (status: number, message: string, type?: string) => Object.assign(new Error(message), { status, statusCode: status, expose: true, type });

describe('errorHandler', () => {
  it('answers a Tessera error with its status, message, code and extensions', async () => {
    const { agent, lines } = appThrowing(new RecordNotUniqueError('Value for field "email" has to be unique.', { field: 'email' }));
    const response = await agent.post('/users');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [{ message: 'Value for field "email" has to be unique.', extensions: { code: 'RECORD_NOT_UNIQUE', field: 'email' } }],
    });
    expect(lines).toEqual([]);
  });

  it('uses the status of each error class', async () => {
    const response = await appThrowing(new ForbiddenError()).agent.get('/items/secret');
    expect(response.status).toBe(403);
    expect(response.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN' });
  });

  it('does not let extensions override the code', async () => {
    const response = await appThrowing(new InvalidPayloadError('bad', { code: 'SPOOFED' })).agent.get('/');
    expect(response.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
  });

  it('hides an unexpected error behind a generic 500 and logs it with the request id', async () => {
    const { agent, lines } = appThrowing(new Error('secret detail'));
    const response = await agent.get('/').set('X-Request-Id', 'req-123');
    expect(response.status).toBe(500);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify(response.body)).not.toContain('secret detail');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, requestId: 'req-123', msg: 'unexpected error', err: { message: 'secret detail' } });
  });

  it.each([
    [413, 'request entity too large', undefined, 'CONTENT_TOO_LARGE'],
    [415, 'Unsupported Media Type', undefined, 'UNSUPPORTED_MEDIA_TYPE'],
    [400, 'Unexpected token } in JSON', 'entity.parse.failed', 'INVALID_PAYLOAD'],
  ])('maps a body-parser error with status %i to %s', async (status, message, type, code) => {
    const { agent, lines } = appThrowing(httpError(status, message, type));
    const response = await agent.post('/items/articles');
    expect(response.status).toBe(status);
    expect(response.body.errors[0].extensions).toEqual({ code });
    expect(lines).toEqual([]);
  });

  it('says the body is not valid JSON when parsing failed', async () => {
    const response = await appThrowing(httpError(400, 'Unexpected token', 'entity.parse.failed')).agent.post('/');
    expect(response.body.errors[0].message).toBe('Request body is not valid JSON.');
  });

  it('keeps the message of another 400 body-parser error', async () => {
    const response = await appThrowing(httpError(400, 'invalid charset')).agent.post('/');
    expect(response.body.errors[0]).toEqual({ message: 'invalid charset', extensions: { code: 'INVALID_PAYLOAD' } });
  });

  it('answers thrown null, undefined and strings with the generic 500 envelope', async () => {
    for (const thrown of [null, undefined, 'plain string']) {
      const { agent, lines } = appThrowing(thrown);
      const response = await agent.get('/');
      expect(response.status).toBe(500);
      expect(response.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(lines).toHaveLength(1);
    }
  });

  it.each([
    [401, 'INVALID_TOKEN'],
    [403, 'FORBIDDEN'],
    [404, 'ROUTE_NOT_FOUND'],
    [416, 'RANGE_NOT_SATISFIABLE'],
    [429, 'REQUESTS_EXCEEDED'],
  ])('maps a Koa ctx.throw(%i) to %s', async (status, code) => {
    const { agent, lines } = appThrowing(httpError(status, 'nope'));
    const response = await agent.get('/');
    expect(response.status).toBe(status);
    expect(response.body.errors[0]).toEqual({ message: 'nope', extensions: { code } });
    expect(lines).toEqual([]);
  });
});

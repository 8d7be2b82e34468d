import { describe, expect, it } from 'vitest';
import { asList, checkHeaderName, checkHeaderValue, checkUrl, toFormValues, toWebhookPayload } from '../../../../admin/src/modules/webhooks/webhook-rules.ts';

describe('webhook form rules (the server’s, in the browser)', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(checkUrl('https://hooks.example.com/x')).toBeNull();
    expect(checkUrl('http://127.0.0.1:8080')).toBeNull();
    expect(checkUrl('ftp://example.com')).toBe('webhooks.errors.url');
    expect(checkUrl('/relative')).toBe('webhooks.errors.url');
    expect(checkUrl('  ')).toBe('webhooks.errors.required');
  });

  it('checks header names as HTTP tokens and values for line breaks', () => {
    expect(checkHeaderName('X-Secret')).toBeNull();
    expect(checkHeaderName('X Bad')).toBe('webhooks.errors.headerName');
    expect(checkHeaderName('X-Bad\r\nInjected')).toBe('webhooks.errors.headerName');
    expect(checkHeaderValue('a value')).toBeNull();
    expect(checkHeaderValue('a\nb')).toBe('webhooks.errors.headerValue');
  });

  it('reads csv columns either way and round-trips a stored webhook', () => {
    expect(asList('create, update')).toEqual(['create', 'update']);
    expect(asList(['delete'])).toEqual(['delete']);
    const stored = { id: 1, name: 'Hook', method: 'GET', url: 'https://x.test', status: 'inactive', data: false, headers: null, actions: 'create,delete', collections: 'articles' };
    expect(toWebhookPayload(toFormValues(stored))).toEqual({ name: 'Hook', method: 'GET', url: 'https://x.test', status: 'inactive', data: false, headers: null, actions: ['create', 'delete'], collections: ['articles'] });
  });

  it('drops empty header rows and trims names', () => {
    expect(toWebhookPayload({ name: ' A ', url: ' https://x.test ', headers: [{ header: ' X-A ', value: '1' }, { header: '' }, undefined], actions: ['create'], collections: ['c'] })).toMatchObject({ name: 'A', url: 'https://x.test', headers: [{ header: 'X-A', value: '1' }] });
  });
});

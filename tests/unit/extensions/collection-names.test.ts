import { describe, expect, it } from 'vitest';
import { toDirectusAccountability, toTesseraAccountability } from '../../../server/extensions/context/accountability.ts';
import { itemToDirectus, payloadToTessera, queryToTessera, toDirectusCollection, toTesseraCollection } from '../../../server/extensions/context/collection-names.ts';

describe("Directus's collection names in the extension context", () => {
  it('maps system collection names both ways and leaves user collections alone', () => {
    expect(toTesseraCollection('directus_users')).toBe('tessera_users');
    expect(toDirectusCollection('tessera_users')).toBe('directus_users');
    expect(toTesseraCollection('articles')).toBe('articles');
    expect(toDirectusCollection('articles')).toBe('articles');
    expect(toTesseraCollection('tessera_files')).toBe('tessera_files');
  });

  it('maps the operands of collection-valued fields in filters, through _and and _or', () => {
    const query = queryToTessera('tessera_activity', {
      filter: { _and: [{ collection: { _in: ['directus_users', 'articles'] } }, { _or: [{ collection: { _eq: 'directus_files' } }, { item: { _eq: 'directus_x' } }] }] },
      fields: ['collection', 'item'],
    });
    expect(query.filter).toEqual({ _and: [{ collection: { _in: ['tessera_users', 'articles'] } }, { _or: [{ collection: { _eq: 'tessera_files' } }, { item: { _eq: 'directus_x' } }] }] });
  });

  it('leaves filters of collections without collection-valued fields alone', () => {
    const filter = { collection: { _eq: 'directus_users' } };
    expect(queryToTessera('articles', { filter }).filter).toEqual(filter);
  });

  it('maps many-to-any field paths', () => {
    expect(queryToTessera('pages', { fields: ['blocks.item:directus_files.id', 'title'] }).fields).toEqual(['blocks.item:tessera_files.id', 'title']);
    expect(queryToTessera('pages', { fields: 'id,blocks.item:directus_users.email' }).fields).toEqual(['id', 'blocks.item:tessera_users.email']);
  });

  it('maps payloads and items, csv and list values included', () => {
    expect(payloadToTessera('tessera_webhooks', { collections: 'directus_users, articles', name: 'directus_users' })).toEqual({ collections: 'tessera_users,articles', name: 'directus_users' });
    expect(payloadToTessera('tessera_relations', { one_allowed_collections: ['directus_files', 'pages'] })).toEqual({ one_allowed_collections: ['tessera_files', 'pages'] });
    expect(itemToDirectus('tessera_permissions', { id: 1, collection: 'tessera_files' })).toEqual({ id: 1, collection: 'directus_files' });
    expect(itemToDirectus('articles', { collection: 'tessera_files' })).toEqual({ collection: 'tessera_files' });
  });

  it('ignores a non-object query', () => {
    expect(queryToTessera('articles', null)).toEqual({});
    expect(queryToTessera('articles', 'fields=*')).toEqual({});
  });
});

describe('accountability in the extension context', () => {
  it('null and undefined are the system caller (full access)', () => {
    for (const value of [null, undefined]) expect(toTesseraAccountability(value)).toMatchObject({ admin: true, user: null, role: null });
  });

  it('a Directus accountability keeps its caller and is never admin unless it says so', () => {
    expect(toTesseraAccountability({ user: 'u1', role: 'r1', app: true, ip: '10.0.0.1', userAgent: 'ua', origin: 'https://x' })).toEqual({
      user: 'u1',
      role: 'r1',
      admin: false,
      app: true,
      ip: '10.0.0.1',
      userAgent: 'ua',
      origin: 'https://x',
      session: null,
      share: null,
    });
    expect(toTesseraAccountability({ user: 'u1', roles: ['r2', 'r3'] }).role).toBe('r2');
    expect(toTesseraAccountability({}).admin).toBe(false);
  });

  it('round-trips a Tessera accountability', () => {
    const tessera = { user: 'u1', role: 'r1', admin: false, app: true, ip: null, userAgent: null, origin: null, session: 'hash', share: null };
    const directus = toDirectusAccountability(tessera);
    expect(directus).toMatchObject({ user: 'u1', role: 'r1', roles: ['r1'], admin: false, app: true });
    expect(toTesseraAccountability({ ...directus, session: 'hash' } as never)).toEqual(tessera);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../server/errors.ts';
import { parseCollabRequest } from '../../../server/realtime/collab-messages.ts';

const refusal = (message: Record<string, unknown>) => {
  try {
    parseCollabRequest(message);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPayloadError);
    return { message: (error as InvalidPayloadError).message, field: (error as InvalidPayloadError).extensions?.field };
  }
  throw new Error('not refused');
};

describe('parseCollabRequest', () => {
  it("reads Directus's join, leave and focus, and Tessera's watch", () => {
    expect(parseCollabRequest({ type: 'collab', action: 'join', collection: 'articles', item: '1', version: null })).toEqual({ action: 'join', collection: 'articles', item: '1', version: null, color: null });
    // A numeric key is taken as its text; a singleton has no item.
    expect(parseCollabRequest({ action: 'join', collection: 'home', item: 7, color: 'blue' })).toMatchObject({ item: '7', version: null, color: 'blue' });
    expect(parseCollabRequest({ action: 'join', collection: 'home', item: null })).toMatchObject({ item: null });
    expect(parseCollabRequest({ action: 'leave' })).toEqual({ action: 'leave', room: null });
    expect(parseCollabRequest({ action: 'focus', room: 'r', field: 'title' })).toEqual({ action: 'focus', room: 'r', field: 'title' });
    expect(parseCollabRequest({ action: 'focus', room: 'r', field: null })).toEqual({ action: 'focus', room: 'r', field: null });
    expect(parseCollabRequest({ action: 'watch', collection: 'articles' })).toEqual({ action: 'watch', collection: 'articles' });
    expect(parseCollabRequest({ action: 'unwatch' })).toEqual({ action: 'unwatch', collection: null });
  });

  it('refuses bad messages naming the field', () => {
    expect(refusal({ action: 'join' })).toEqual({ message: '"collection" is required.', field: 'collection' });
    expect(refusal({ action: 'join', collection: 'a', item: { id: 1 } }).field).toBe('item');
    expect(refusal({ action: 'join', collection: 'a', color: 'teal' }).field).toBe('color');
    expect(refusal({ action: 'focus', field: 'title' }).field).toBe('room');
    expect(refusal({ action: 'focus', room: 'r', field: 3 }).field).toBe('field');
    expect(refusal({ action: 'fly' }).field).toBe('action');
    // Sharing unsaved edits is Directus's, not Tessera's: said plainly.
    expect(refusal({ action: 'updateAll', room: 'r', changes: {} }).message).toContain('not supported');
  });
});

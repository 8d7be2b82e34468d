import { describe, expect, it } from 'vitest';
import { buildChain, OptionJsonError, toOperationOptions, toOptionValues, type OperationRecord } from '../../../../admin/src/modules/flows/operation-types.ts';

const op = (id: string, resolve: string | null = null, reject: string | null = null): OperationRecord => ({ id, key: id, name: null, type: 'log', options: null, resolve, reject, position_x: 1, position_y: 1, flow: 'f' });

describe('flow editor: the operation chain', () => {
  it('draws resolve and reject paths from the first operation, and lists unreachable ones apart', () => {
    const { root, detached } = buildChain('a', [op('a', 'b', 'c'), op('b'), op('c', 'd'), op('d'), op('lost')]);
    expect(root?.operation.id).toBe('a');
    expect(root?.resolve?.operation.id).toBe('b');
    expect(root?.reject?.operation.id).toBe('c');
    expect(root?.reject?.resolve?.operation.id).toBe('d');
    expect(detached.map((entry) => entry.id)).toEqual(['lost']);
  });

  it('stops at a cycle instead of looping', () => {
    const { root } = buildChain('a', [op('a', 'b'), op('b', 'a')]);
    expect(root?.resolve?.operation.id).toBe('b');
    expect(root?.resolve?.resolve).toBeNull();
  });

  it('turns JSON option texts into values and back, naming the option whose JSON is broken', () => {
    expect(toOperationOptions('item-update', { collection: 'articles', payload: '{"status":"published"}', key: '' })).toEqual({ collection: 'articles', payload: { status: 'published' } });
    expect(toOptionValues('transform', { json: { a: 1 } })).toEqual({ json: '{\n  "a": 1\n}' });
    expect(() => toOperationOptions('transform', { json: '{oops' })).toThrow(OptionJsonError);
  });
});

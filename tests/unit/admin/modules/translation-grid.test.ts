import { describe, expect, it } from 'vitest';
import { cellChange, searchGrid, toGrid } from '../../../../admin/src/modules/translations/translation-grid.ts';

const records = [
  { id: 'a', key: 'labels.save', language: 'pt-BR', value: 'Salvar' },
  { id: 'b', key: 'labels.save', language: 'en-US', value: 'Save' },
  { id: 'c', key: 'collections.news', language: 'de', value: 'Nachrichten' },
];

describe('translations grid', () => {
  it('groups rows by key, sorted, with the shipped languages first and the others after', () => {
    const grid = toGrid(records, ['en-US', 'pt-BR']);
    expect(grid.languages).toEqual(['en-US', 'pt-BR', 'de']);
    expect(grid.rows.map((row) => row.key)).toEqual(['collections.news', 'labels.save']);
    expect(grid.rows[1]!.values).toEqual({ 'pt-BR': { id: 'a', value: 'Salvar' }, 'en-US': { id: 'b', value: 'Save' } });
  });

  it('turns an edited cell into a create, an update, a removal, or nothing', () => {
    expect(cellChange(undefined, 'Neu')).toEqual({ kind: 'create' });
    expect(cellChange(undefined, '  ')).toBeNull();
    expect(cellChange({ id: 'a', value: 'Salvar' }, 'Gravar')).toEqual({ kind: 'update', id: 'a' });
    expect(cellChange({ id: 'a', value: 'Salvar' }, 'Salvar')).toBeNull();
    expect(cellChange({ id: 'a', value: 'Salvar' }, '')).toEqual({ kind: 'delete', id: 'a' });
  });

  it('searches keys and texts', () => {
    const { rows } = toGrid(records, ['en-US']);
    expect(searchGrid(rows, 'NACH').map((row) => row.key)).toEqual(['collections.news']);
    expect(searchGrid(rows, 'labels').map((row) => row.key)).toEqual(['labels.save']);
    expect(searchGrid(rows, '')).toHaveLength(2);
  });
});

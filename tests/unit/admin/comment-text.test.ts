import { describe, expect, it } from 'vitest';
import { commentParts, toEditable, toStored } from '../../../admin/src/content/items/comment-text.ts';

const BOB = '0ead8c45-9bd5-419f-8435-aeac1b0b1e7e';
const ANA = '1fad8c45-9bd5-419f-8435-aeac1b0b1e7e';

describe('comment mentions', () => {
  it('splits stored text into text and named mentions', () => {
    expect(commentParts(`Hi @${BOB}, see @${ANA}.`, { [BOB]: 'Bob Doe' })).toEqual([
      { text: 'Hi ' },
      { mention: BOB, name: 'Bob Doe' },
      { text: ', see ' },
      { mention: ANA, name: null },
      { text: '.' },
    ]);
    expect(commentParts('No mentions', {})).toEqual([{ text: 'No mentions' }]);
  });

  it('turns ids into names for editing and names back into ids for storing, longer names first', () => {
    const names = { [BOB]: 'Ana Lu', [ANA]: 'Ana' };
    const editable = toEditable(`@${BOB} and @${ANA}`, names);
    expect(editable).toBe('@Ana Lu and @Ana');
    expect(toStored(editable, { 'Ana Lu': BOB, Ana: ANA })).toBe(`@${BOB} and @${ANA}`);
    expect(toStored('plain @someone', { Ana: ANA })).toBe('plain @someone');
  });
});

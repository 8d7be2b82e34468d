import { it } from 'vitest';

throw new Error('the file fails to load');

it('is never collected', () => {});

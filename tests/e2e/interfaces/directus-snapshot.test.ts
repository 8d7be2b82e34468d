import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHarness } from '../harness.ts';
import { collection, column, fieldMeta as meta, foreignKey, idField as id, relationMeta, textField as text } from '../../helpers/directus-snapshot.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * A schema snapshot written by Directus that uses the catalogue's interface and display ids (radio buttons,
 * colour, repeater, many-to-any, notice; labels and colour displays) applies through /schema/diff and
 * /schema/apply, and its fields render with those interfaces and displays.
 */
let harness: AdminHarness;
let send: Send;

const choices = [{ text: 'Draft', value: 'draft', foreground: '#FFFFFF', background: '#A2B5CD' }, { text: 'Live', value: 'live', foreground: '#FFFFFF', background: '#2ECDA7' }];
const SNAPSHOT = {
  version: 1,
  directus: '10.13.1',
  vendor: 'postgres',
  collections: [collection('landing', { display_template: '{{title}}' }), collection('block_hero', { display_template: '{{headline}}' }), collection('block_cta', { display_template: '{{label}}' }), collection('landing_blocks', { hidden: true })],
  fields: [
    id('landing'),
    text('landing', 'title'),
    text('landing', 'status', { interface: 'select-radio', options: { choices }, display: 'labels', display_options: { choices } }),
    text('landing', 'theme', { interface: 'select-color', options: { presets: [{ name: 'Brand', color: '#6644FF' }] }, display: 'color' }),
    {
      collection: 'landing',
      field: 'faq',
      type: 'json',
      meta: meta('landing', 'faq', { interface: 'list', special: ['cast-json'], options: { template: '{{question}}', fields: [{ field: 'question', name: 'Question', type: 'string', meta: { interface: 'input', width: 'full' } }, { field: 'answer', name: 'Answer', type: 'text', meta: { interface: 'input-multiline', width: 'full' } }] } }),
      schema: column('landing', 'faq', 'json'),
    },
    { collection: 'landing', field: 'blocks', type: 'alias', meta: meta('landing', 'blocks', { interface: 'list-m2a', special: ['m2a'], options: { enableSelect: true } }) },
    { collection: 'landing', field: 'tip', type: 'alias', meta: meta('landing', 'tip', { interface: 'presentation-notice', special: ['alias', 'no-data'], options: { color: 'warning', text: 'Check {{title}} before publishing' } }) },
    id('block_hero'),
    text('block_hero', 'headline'),
    id('block_cta'),
    text('block_cta', 'label'),
    id('landing_blocks'),
    { collection: 'landing_blocks', field: 'landing_id', type: 'integer', meta: meta('landing_blocks', 'landing_id', { hidden: true }), schema: column('landing_blocks', 'landing_id', 'integer', { foreign_key_table: 'landing', foreign_key_column: 'id' }) },
    text('landing_blocks', 'item', { hidden: true }),
    text('landing_blocks', 'collection', { hidden: true }),
  ],
  relations: [
    {
      collection: 'landing_blocks',
      field: 'item',
      related_collection: null,
      meta: relationMeta({ many_collection: 'landing_blocks', many_field: 'item', one_collection_field: 'collection', one_allowed_collections: ['block_hero', 'block_cta'], junction_field: 'landing_id' }),
    },
    {
      collection: 'landing_blocks',
      field: 'landing_id',
      related_collection: 'landing',
      meta: relationMeta({ many_collection: 'landing_blocks', many_field: 'landing_id', one_collection: 'landing', one_field: 'blocks', junction_field: 'item', one_deselect_action: 'nullify' }),
      schema: foreignKey('landing_blocks', 'landing_id', 'landing', 'id'),
    },
  ],
};

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
});
afterAll(async () => {
  await harness?.close();
});

describe('a Directus snapshot with catalogue interfaces', () => {
  it('applies, and its fields render with their interfaces and displays', async () => {
    const diff = await send('post', '/schema/diff', SNAPSHOT);
    await send('post', '/schema/apply', diff);
    const [hero] = await send('post', '/items/block_hero', [{ headline: 'Fly with us' }]);
    await send('post', '/items/landing', {
      title: 'Spring',
      status: 'live',
      theme: '#6644FF',
      faq: [{ question: 'Is it free?', answer: 'Yes.' }],
      blocks: [{ collection: 'block_hero', item: hero.id }, { collection: 'block_cta', item: { label: 'Book now' } }],
    });
    const [spring] = await send('get', '/items/landing?fields=id');

    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/landing/${spring.id}`);
    expect(await page.getByTestId('radio-status').getByRole('radio', { name: 'Live' }).isChecked()).toBe(true);
    await page.getByTestId('color-theme').getByText('#6644FF').waitFor();
    await page.getByTestId('repeater-faq').getByText('Is it free?').waitFor();
    const blocks = page.getByTestId('many-to-any-blocks');
    await blocks.getByText('Fly with us').waitFor();
    await blocks.getByText('Book now').waitFor();
    await page.getByTestId('notice-tip').getByText('Check Spring before publishing').waitFor();
    await harness.screenshot(page, 'interfaces-directus-snapshot-form');

    await page.goto('/admin/content/landing');
    const row = page.getByRole('row', { name: /Spring/ });
    await row.getByText('Live').waitFor();
    await row.getByText('#6644FF').waitFor();
  });
});

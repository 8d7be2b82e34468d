import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, startSignedInAdmin, type Send } from '../interfaces/interface-kit.ts';
import type { AdminHarness } from '../harness.ts';
import { expectNoEnglish } from '../english-leaks.ts';

let harness: AdminHarness;
let token: string;
let send: Send;

const openList = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';

/** Picks `title` in the select `select` opens, once no other list is still open (a closing one can hold the same option). */
async function pick(page: Page, select: ReturnType<Page['locator']>, title: string) {
  await expect.poll(() => page.locator(openList).count(), { timeout: 60_000 }).toBe(0);
  await select.click();
  await page.locator(openList).getByTitle(title, { exact: true }).click();
  await expect.poll(() => page.locator(openList).count(), { timeout: 60_000 }).toBe(0);
}

/** Creates a relation of `kind` (its English label) from the data model screen of `posts`. */
async function createRelation(page: Page, kind: string, field: string, target?: { related?: string; allowed?: string[] }) {
  await page.getByTestId('relation-create').click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByText(kind, { exact: true }).click();
  await page.getByTestId('relation-field').fill(field);
  if (target?.related) await chooseOption(page, 'relation-related', target.related);
  if (target?.allowed) {
    // A multiple select stays open while options are picked.
    await page.getByTestId('relation-allowed').click();
    for (const collection of target.allowed) await page.locator(openList).getByTitle(collection, { exact: true }).click();
    await page.keyboard.press('Escape');
  }
  await page.getByTestId('relation-save').click();
  await page.getByTestId(`field-row-${field}`).waitFor({ timeout: 60_000 });
}

beforeAll(async () => {
  ({ harness, token, send } = await startSignedInAdmin());
  await send('post', '/collections', { collection: 'posts', fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } }, { field: 'title', type: 'string' }, { field: 'sort', type: 'integer' }, { field: 'status', type: 'string' }] });
  await send('post', '/collections', { collection: 'authors', meta: { display_template: '{{name}}' }, fields: [{ field: 'name', type: 'string' }] });
  await send('post', '/collections', { collection: 'comments', fields: [{ field: 'body', type: 'string' }] });
  await send('post', '/collections', { collection: 'tags', meta: { display_template: '{{label}}' }, fields: [{ field: 'label', type: 'string' }] });
});
afterAll(async () => {
  await harness?.close();
});

describe('the data model builder', () => {
  it('creates every relation kind from the UI, and an item is saved with all of them', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/posts');
    await page.getByTestId('collection-title').waitFor();

    await createRelation(page, 'Many to one', 'author', { related: 'authors' });
    await createRelation(page, 'One to many', 'comments', { related: 'comments' });
    await createRelation(page, 'Many to many', 'tags', { related: 'tags' });
    await createRelation(page, 'Many to any', 'blocks', { allowed: ['authors', 'tags'] });
    await page.getByTestId('relation-create').click();
    await page.locator('.ant-drawer-content').getByText('Translations', { exact: true }).click();
    // No languages collection yet: the drawer says it will make one.
    await page.getByText('Leave empty to create "languages" with English and Brazilian Portuguese.').waitFor();
    await harness.screenshot(page, 'data-model-relation-translations');
    await page.getByTestId('relation-field').fill('translations');
    await page.getByTestId('relation-save').click();
    await page.getByTestId('field-row-translations').waitFor({ timeout: 60_000 });
    await createRelation(page, 'Files', 'gallery');
    await createRelation(page, 'Image', 'cover');
    await harness.screenshot(page, 'data-model-relation-kinds');

    const fields = Object.fromEntries(((await send('get', '/fields/posts')) as Array<{ field: string; meta: { special: string[] | null; interface: string | null } }>).map((field) => [field.field, field.meta]));
    expect(fields.author).toMatchObject({ special: ['m2o'] });
    expect(fields.comments).toMatchObject({ special: ['o2m'] });
    expect(fields.tags).toMatchObject({ special: ['m2m'] });
    expect(fields.blocks).toMatchObject({ special: ['m2a'] });
    expect(fields.translations).toMatchObject({ special: ['translations'], interface: 'translations' });
    expect(fields.gallery).toMatchObject({ special: ['files'], interface: 'files' });
    expect(fields.cover).toMatchObject({ special: ['m2o'], interface: 'file-image' });
    expect(((await send('get', '/items/languages?sort=code')) as Array<{ code: string }>).map((language) => language.code)).toEqual(['en-US', 'pt-BR']);

    // The translated text lives on the junction's rows.
    await send('post', '/fields/posts_translations', { field: 'headline', type: 'string' });
    const [author] = (await send('post', '/items/authors', [{ name: 'Ana' }])) as Array<{ id: number }>;
    const [tag] = (await send('post', '/items/tags', [{ label: 'bees' }])) as Array<{ id: number }>;
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#3a7' } }).png().toBuffer();
    const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${token}`).attach('file', png, 'cover.png').expect(200);
    const file = upload.body.data.id as string;
    const post = (await send('post', '/items/posts', {
      title: 'Hives',
      author: author!.id,
      comments: [{ body: 'Lovely' }],
      tags: [{ tags_id: tag!.id }],
      blocks: [{ collection: 'tags', item: String(tag!.id) }],
      translations: [{ languages_code: 'en-US', headline: 'Hives' }],
      gallery: [{ tessera_files_id: file }],
      cover: file,
    })) as { id: number };

    // The item form shows every relation, and saving it keeps them all.
    await page.goto(`/admin/content/posts/${post.id}`);
    const title = page.locator('#field-title');
    await expect.poll(() => title.inputValue(), { timeout: 60_000 }).toBe('Hives');
    await title.fill('Hives, saved in the form');
    await page.getByTestId('save-item').click();
    const read = `/items/posts/${post.id}?fields=title,author,comments.body,tags.tags_id,blocks.collection,blocks.item,translations.headline,gallery.tessera_files_id,cover`;
    await expect.poll(async () => ((await send('get', read)) as { title: string }).title, { timeout: 60_000 }).toBe('Hives, saved in the form');
    expect(await send('get', read)).toEqual({
      title: 'Hives, saved in the form',
      author: author!.id,
      comments: [{ body: 'Lovely' }],
      tags: [{ tags_id: tag!.id }],
      blocks: [{ collection: 'tags', item: String(tag!.id) }],
      translations: [{ headline: 'Hives' }],
      gallery: [{ tessera_files_id: file }],
      cover: file,
    });
    await harness.screenshot(page, 'data-model-item-with-every-relation');
    await page.close();
  });

  it('saves versioning, duplication fields, preview URL, display template, archive and sort from the UI', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/data-model/posts');
    const form = page.getByTestId('collection-settings-form');
    await form.waitFor();
    await form.getByLabel('Display template').fill('{{title}}');
    await page.getByTestId('collection-versioning').click();
    await page.getByTestId('collection-duplication-fields').click();
    await page.locator(openList).getByTitle('title', { exact: true }).click();
    await page.locator(openList).getByTitle('tags.*', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('collection-preview-url').fill('https://example.com/preview/{{id}}');
    await pick(page, form.getByLabel('Manual sort field'), 'sort');
    await pick(page, form.getByLabel('Archive field'), 'status');
    await form.locator('#archive_value').fill('archived');
    await form.locator('#unarchive_value').fill('draft');
    await harness.screenshot(page, 'data-model-collection-settings');
    await page.getByTestId('collection-settings-save').click();
    await expect
      .poll(async () => ((await send('get', '/collections/posts')) as { meta: Record<string, unknown> }).meta, { timeout: 60_000 })
      .toMatchObject({ versioning: true, item_duplication_fields: ['title', 'tags.*'], preview_url: 'https://example.com/preview/{{id}}', display_template: '{{title}}', sort_field: 'sort', archive_field: 'status', archive_value: 'archived', unarchive_value: 'draft' });
    await page.close();
  });

  it('speaks Brazilian Portuguese at 390 px: the relation drawer, the new settings and the user form', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await harness.signIn(page);
    await page.goto('/admin/data-model/posts');
    await page.getByText('Versões, cópias e pré-visualização').waitFor({ timeout: 60_000 });
    await page.getByText('Campos que "Salvar como cópia" leva').waitFor();
    await page.getByTestId('relation-create').click();
    await page.locator('.ant-drawer-content').getByText('Traduções', { exact: true }).click();
    await page.getByText('Coleção de idiomas').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'data-model-relation-pt-BR-390');
    await page.goto('/admin/users');
    await page.getByTestId('users-create').click();
    await page.getByText('A política de senhas do projeto se aplica. Informe a senha à pessoa por outro meio.').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'users-create-pt-BR-390');
    await page.close();
    await send('patch', '/users/me', { language: null });
  });

  it('creates a user with a password, who then signs in; an invitation says it went to the outbox', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/users');
    await page.getByTestId('users-create').click();
    await page.getByTestId('user-create-first-name').fill('Bruna');
    await page.getByTestId('user-create-email').fill('bruna@example.com');
    await page.getByTestId('user-create-password').fill('bruna-password-1');
    await page.getByTestId('user-create-role').click();
    await page.locator(openList).getByTitle('Administrator', { exact: true }).click();
    await harness.screenshot(page, 'users-create');
    await page.getByTestId('user-create-submit').click();
    await page.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/, { timeout: 60_000 });

    await page.goto('/admin/users');
    await page.getByTestId('users-invite').click();
    await page.getByTestId('invite-emails').fill('carla@example.com');
    await chooseOption(page, 'invite-role', 'Administrator');
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByTestId('invite-outbox-notice').waitFor({ timeout: 60_000 });
    // Nothing was e-mailed: the heading says where the invitations went, and no "sent" notice shows.
    expect(await page.locator('.ant-modal-confirm-title').textContent()).toBe('Invitations written to the outbox, not e-mailed: 1');
    expect(await page.getByText('Invitations sent', { exact: false }).count()).toBe(0);
    await harness.screenshot(page, 'users-invite-outbox');
    await page.close();

    const bruna = await harness.newPage();
    await harness.signIn(bruna, 'bruna@example.com', 'bruna-password-1');
    expect(new URL(bruna.url()).pathname).not.toContain('/login');
    await bruna.close();
  });
});

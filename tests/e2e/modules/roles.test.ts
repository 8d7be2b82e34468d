import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
let token: string;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  const { request } = harness.app;
  await request.post('/collections').set(auth()).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'secret', type: 'string' }] }).expect(200);
  await request.post('/collections').set(auth()).send({ collection: 'drafts', fields: [{ field: 'note', type: 'string' }] }).expect(200);
  await request.post('/items/articles').set(auth()).send([{ title: 'Hello', secret: 'classified' }, { title: null, secret: 'hidden row' }]).expect(200);
  await request.post('/items/drafts').set(auth()).send({ note: 'not for editors' }).expect(200);
});
afterAll(async () => {
  await harness?.close();
});

describe('roles and the permission matrix', () => {
  it('creates a role, sets its permissions in the matrix, and a user of that role sees only what it allows', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-roles').click();
    await page.getByTestId('roles-title').waitFor();

    await page.getByTestId('role-create').click();
    await page.getByTestId('role-name').fill('Editors');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/admin\/roles\/[0-9a-f-]{36}$/);
    const roleId = page.url().split('/').at(-1)!;
    await page.getByTestId('cell-articles-read').waitFor();
    // An app role shows the SPEC §6 defaults on system collections without storing rows.
    expect(await page.getByTestId('cell-articles-read').getAttribute('data-state')).toBe('none');

    // articles/read: custom, two fields, items with a title only.
    await page.getByTestId('cell-articles-read').click();
    await page.getByRole('menuitem', { name: 'Custom…' }).click();
    // Turning "every field" off starts from every field checked: uncheck the one to hide.
    await page.getByTestId('permission-all-fields').click();
    await page.getByTestId('permission-field-secret').click();
    await page.locator('textarea#permissions').fill('{ "title": { "_nnull": tru } }');
    await page.getByTestId('permission-save').click();
    await page.getByText('This is not valid JSON.').waitFor();
    await page.locator('textarea#permissions').fill('{ "title": { "_nnull": true } }');
    await harness.screenshot(page, 'roles-permission-drawer');
    await page.getByTestId('permission-save').click();
    await expect.poll(() => page.getByTestId('cell-articles-read').getAttribute('data-state')).toBe('custom');

    // articles/update: all access, from the cell's menu.
    await page.getByTestId('cell-articles-update').click();
    await page.getByRole('menuitem', { name: 'All access' }).click();
    await expect.poll(() => page.getByTestId('cell-articles-update').getAttribute('data-state')).toBe('all');
    await harness.screenshot(page, 'roles-matrix');

    const rows = await harness.app.request.get('/permissions').query({ filter: JSON.stringify({ role: { _eq: roleId } }), sort: 'action' }).set(auth()).expect(200);
    expect(rows.body.data.map((row: Record<string, unknown>) => ({ collection: row.collection, action: row.action, fields: row.fields, permissions: row.permissions }))).toEqual([
      { collection: 'articles', action: 'read', fields: ['id', 'title'], permissions: { title: { _nnull: true } } },
      { collection: 'articles', action: 'update', fields: ['*'], permissions: null },
    ]);

    // A user of the role sees articles (two fields, one item) and not drafts.
    await harness.app.request.post('/users').set(auth()).send({ email: 'editor@example.com', password: 'editor-password-1', role: roleId, status: 'active' }).expect(200);
    const editor = await harness.newPage();
    await harness.signIn(editor, 'editor@example.com', 'editor-password-1');
    await editor.getByTestId('nav-articles').waitFor();
    expect(await editor.getByTestId('nav-drafts').count()).toBe(0);
    // Screens for what the role may not do are not offered.
    for (const module of ['roles', 'collections', 'settings']) expect(await editor.getByTestId(`nav-module-${module}`).count(), module).toBe(0);
    await editor.getByTestId('nav-articles').click();
    await editor.getByText('Hello').waitFor();
    expect(await editor.getByText('hidden row').count()).toBe(0);
    expect(await editor.getByText('classified').count()).toBe(0);
    await harness.screenshot(editor, 'roles-restricted-user-list');
    await editor.getByText('Hello').click();
    await editor.getByTestId('field-title').waitFor();
    expect(await editor.getByTestId('field-secret').count()).toBe(0);

    // Back to "none" for read: the editor loses the collection (after signing in again).
    await page.getByTestId('row-articles').click();
    await page.getByRole('menuitem', { name: 'No access to any action' }).click();
    await expect.poll(() => page.getByTestId('cell-articles-read').getAttribute('data-state')).toBe('none');
    const left = await harness.app.request.get('/permissions').query({ filter: JSON.stringify({ role: { _eq: roleId } }) }).set(auth()).expect(200);
    expect(left.body.data).toEqual([]);
  });

  it('lists roles with the public role and edits role details', async () => {
    const roleId = (await harness.app.request.post('/roles').set(auth()).send({ name: 'Reviewers', app_access: true }).expect(200)).body.data.id as string;
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/roles');
    await page.getByTestId('role-row-Administrator').waitFor();
    await page.getByTestId('role-row-Public').waitFor();
    await harness.screenshot(page, 'roles-list');

    await page.getByTestId('role-row-Reviewers').click();
    await page.waitForURL(new RegExp(`/admin/roles/${roleId}$`));
    const form = page.getByTestId('role-form');
    await expect.poll(() => form.getByLabel('Name').inputValue()).toBe('Reviewers');
    await form.getByLabel('Name').fill('Copy editors');
    await form.getByLabel('Description').fill('Check spelling before publishing');
    await form.getByLabel('Require two-factor authentication').click();
    // A malformed address is refused in the form and nothing is saved.
    const ip = form.getByLabel('Allowed IP addresses');
    await ip.fill('not-an-ip');
    await ip.press('Enter');
    await page.getByTestId('role-save').click();
    await page.getByText('Not an IP address or range: not-an-ip').waitFor();
    const unchanged = await harness.app.request.get(`/roles/${roleId}?fields=name,description,enforce_tfa,ip_access`).set(auth()).expect(200);
    expect(unchanged.body.data).toEqual({ name: 'Reviewers', description: null, enforce_tfa: false, ip_access: null });

    await form.locator('.ant-select-selection-item-remove').click();
    await ip.fill('10.0.0.0/8');
    await ip.press('Enter');
    await page.getByTestId('role-save').click();
    await expect.poll(() => page.getByTestId('role-title').textContent()).toBe('Copy editors');
    const saved = await harness.app.request.get(`/roles/${roleId}?fields=name,description,enforce_tfa,ip_access,app_access`).set(auth()).expect(200);
    expect(saved.body.data).toEqual({ name: 'Copy editors', description: 'Check spelling before publishing', enforce_tfa: true, ip_access: expect.anything(), app_access: true });
    expect(String(saved.body.data.ip_access)).toBe('10.0.0.0/8');
    await harness.screenshot(page, 'roles-edited');

    // The list shows the new name; the public role opens its permission matrix.
    await page.goto('/admin/roles');
    await page.getByTestId('role-row-Copy editors').waitFor();
    expect(await page.getByTestId('role-row-Reviewers').count()).toBe(0);
    await page.getByTestId('role-row-Public').click();
    await page.getByTestId('cell-articles-read').waitFor();
    await harness.screenshot(page, 'roles-public');
  });
});

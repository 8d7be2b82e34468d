import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdmin, type AdminHarness } from './harness.ts';
import { pickOption } from './interfaces/interface-kit.ts';

let harness: AdminHarness;
let token: string;
let article: number;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await harness.app.request.post('/collections').set(auth()).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }, { field: 'status', type: 'string' }] }).expect(200);
  article = (await harness.app.request.post('/items/articles').set(auth()).send({ title: 'Launch notes', status: 'draft' }).expect(200)).body.data.id;
});
afterAll(async () => {
  await harness?.close();
});

it('builds a manual flow with two operations in the editor, runs it from an item page through its confirmation dialog, and shows the run log', async () => {
  const page = await harness.newPage();
  await harness.signIn(page);
  await page.goto('/admin/flows');
  await page.getByTestId('flow-create').click();
  await page.getByTestId('flow-name').fill('Publish');
  // The name is in the form before it is submitted, and the create is answered before the editor is awaited
  // (a fresh-clone run once waited 15 s for an editor whose create it could not see).
  await expect.poll(() => page.getByTestId('flow-name').inputValue()).toBe('Publish');
  const createdFlow = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/flows', { timeout: 60_000 });
  await page.getByTestId('flow-save').click();
  expect((await createdFlow).status()).toBe(200);
  // Creating opens the editor; the create form's default trigger is manual.
  await page.getByTestId('flow-editor-title').waitFor();

  // Trigger options: on articles, asking for a note in the confirmation dialog. A bad cron is refused first.
  await page.getByTestId('flow-editor-trigger').click();
  await page.getByTitle('Schedule (cron)', { exact: true }).click();
  await page.getByTestId('trigger-cron').fill('every day');
  await page.getByTestId('flow-editor-save').click();
  await page.getByText('Not a valid schedule: six fields, seconds first.').waitFor();
  await page.getByTestId('flow-editor-trigger').click();
  await page.getByTitle('Manual', { exact: true }).click();
  await page.getByTestId('trigger-collections').click();
  await page.keyboard.type('articles,');
  await page.getByTestId('trigger-confirm').click();
  await page.getByTestId('trigger-confirm-text').fill('Publishes the selected articles.');
  await page.getByTestId('confirm-field-add').click();
  await page.getByTestId('confirm-field-key-0').fill('note');
  await page.getByTestId('confirm-field-name-0').fill('Release note');
  await page.getByTestId('flow-editor-save').click();
  await page.getByTestId('flow-editor-saved').waitFor();
  const flow = (await harness.app.request.get('/flows?filter[name][_eq]=Publish').set(auth()).expect(200)).body.data[0];
  expect(flow).toMatchObject({ trigger: 'manual', options: { collections: ['articles'], requireConfirmation: true, fields: [{ field: 'note', name: 'Release note', type: 'string' }] } });

  // First operation: publish the items the flow was started on.
  await page.getByTestId('operation-add-first').click();
  // The type list is long (and virtual): search narrows it to the one wanted.
  await pickOption(page, page.getByTestId('operation-type'), 'Update items', true);
  await page.getByTestId('operation-key').fill('publish');
  await page.getByTestId('operation-option-collection').fill('{{ $trigger.collection }}');
  await page.getByTestId('operation-option-permissions').click();
  await page.getByTitle('$trigger', { exact: true }).click();
  await page.getByTestId('operation-option-key').fill('{{ $trigger.keys }}');
  await page.getByTestId('operation-option-payload').fill('{"status": "published"');
  await page.getByTestId('operation-save').click();
  await page.getByText('Not valid JSON.').waitFor();
  await page.getByTestId('operation-option-payload').fill('{"status": "published"}');
  await page.getByTestId('operation-save').click();
  await page.getByTestId('operation-publish').waitFor();

  // Then: shape a summary from the confirmation field.
  await page.getByTestId('operation-add-publish-resolve').click();
  // The type list is long (and virtual): search narrows it to the one wanted.
  await pickOption(page, page.getByTestId('operation-type'), 'Transform payload', true);
  await page.getByTestId('operation-key').fill('summary');
  await page.getByTestId('operation-option-json').fill('{"note": "{{ $trigger.note }}", "published": "{{ publish }}"}');
  await page.getByTestId('operation-save').click();
  await page.getByTestId('branch-publish-resolve').getByTestId('operation-summary').waitFor();
  await harness.screenshot(page, 'flow-editor');

  // Run it from the article's page through the confirmation dialog.
  await page.goto(`/admin/content/articles/${article}`);
  await page.getByTestId('manual-flow-Publish').click();
  await page.getByText('Publishes the selected articles.').waitFor();
  await page.getByTestId('manual-flow-field-note').fill('ship it');
  await harness.screenshot(page, 'flow-manual-confirm');
  await page.getByTestId('manual-flow-confirm').click();
  await page.getByText('Flow "Publish" started.').waitFor();
  await expect
    .poll(async () => (await harness.app.request.get(`/items/articles/${article}`).set(auth())).body.data.status, { timeout: 60_000 })
    .toBe('published')
    .catch(async (error: Error) => {
      // What the editor saved and what the runs recorded say why (a CI run once found the article still a draft).
      const operations = (await harness.app.request.get(`/operations?filter[flow][_eq]=${flow.id}`).set(auth())).body.data;
      const runs = (await harness.app.request.get(`/flows/${flow.id}/runs`).set(auth())).body.data;
      throw new Error(`${error.message}\noperations: ${JSON.stringify(operations)}\nruns: ${JSON.stringify(runs)}`);
    });

  // The run log shows the run and each step's data.
  await page.goto(`/admin/flows/${flow.id}`);
  const firstRun = page.getByTestId('run-log').locator('tr[data-testid^="run-"]').first();
  await expect.poll(async () => firstRun.count(), { timeout: 60_000 }).toBe(1);
  await firstRun.getByRole('button').first().click();
  const summary = page.getByTestId('run-step-summary');
  await summary.waitFor();
  expect(await summary.textContent()).toContain('ship it');
  expect(await page.getByTestId('run-step-publish').textContent()).toContain('published');
  await harness.screenshot(page, 'flow-run-log');
});

it('an editor without any permission on flows sees the manual flow button on an article it may read and runs it', async () => {
  const role = (await harness.app.request.post('/roles').set(auth()).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
  for (const action of ['read', 'update']) await harness.app.request.post('/permissions').set(auth()).send({ role, collection: 'articles', action, fields: ['*'] }).expect(200);
  await harness.app.request.post('/users').set(auth()).send({ email: 'editor@example.com', password: 'editor-password-1', role, status: 'active' }).expect(200);
  const draft = (await harness.app.request.post('/items/articles').set(auth()).send({ title: 'Old news', status: 'draft' }).expect(200)).body.data.id;
  const flow = (await harness.app.request.post('/flows').set(auth()).send({ name: 'Archive', status: 'active', trigger: 'manual', options: { collections: ['articles'] } }).expect(200)).body.data.id;
  const operation = (
    await harness.app.request
      .post('/operations')
      .set(auth())
      .send({ flow, key: 'archive', type: 'item-update', position_x: 1, position_y: 1, options: { collection: '{{ $trigger.collection }}', key: '{{ $trigger.keys }}', payload: { status: 'archived' }, permissions: '$trigger' } })
      .expect(200)
  ).body.data.id;
  await harness.app.request.patch(`/flows/${flow}`).set(auth()).send({ operation }).expect(200);

  const page = await harness.newPage();
  await harness.signIn(page, 'editor@example.com', 'editor-password-1');
  await page.goto(`/admin/content/articles/${draft}`);
  await page.getByTestId('manual-flow-Archive').click();
  await page.getByText('Flow "Archive" started.').waitFor();
  await expect.poll(async () => (await harness.app.request.get(`/items/articles/${draft}`).set(auth())).body.data.status, { timeout: 60_000 }).toBe('archived');
});

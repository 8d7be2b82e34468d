import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
let ses: SesEmulator;
let token: string;
let editorRole: string;
const auth = () => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  ses = await startSesEmulator();
  harness = await startAdmin(ses.env);
  token = await harness.app.login();
  editorRole = (await harness.app.request.post('/roles').set(auth()).send({ name: 'Editor', app_access: true }).expect(200)).body.data.id;
});
afterAll(async () => {
  await harness?.close();
  await ses?.close();
});

describe('users', () => {
  it('invites people into a role: they are listed as invited and get a link to the admin', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-users').click();
    await page.getByTestId('users-title').waitFor();
    await page.getByTestId('users-invite').click();
    await page.getByTestId('invite-emails').fill('ana@example.com, not-an-address');
    await page.getByTestId('invite-role').click();
    await page.getByTitle('Editor', { exact: true }).click();
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByText('Not an e-mail address: not-an-address').waitFor();
    await page.getByTestId('invite-emails').fill('ana@example.com, bruno@example.com');
    await harness.screenshot(page, 'users-invite');
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await page.getByTestId('user-row-ana@example.com').waitFor();
    await page.getByTestId('user-row-bruno@example.com').getByText('Invited').waitFor();
    await harness.screenshot(page, 'users-list');

    const [mail] = await ses.waitForEmails('ana@example.com');
    expect(linkIn(mail!).pathname).toBe('/admin/accept-invite');
  });

  it('edits a user: role, status, language and appearance', async () => {
    const created = await harness.app.request.post('/users').set(auth()).send({ email: 'carla@example.com', password: 'carla-password-1', status: 'draft' }).expect(200);
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/users/${created.body.data.id}`);
    await page.getByTestId('user-title').getByText('carla@example.com').waitFor();
    await page.getByLabel('First name').fill('Carla');
    await page.getByTestId('user-role').click();
    await page.getByTitle('Editor', { exact: true }).click();
    await page.getByTestId('user-status').click();
    await page.getByTitle('Active', { exact: true }).click();
    await page.getByLabel('Language').click();
    await page.getByTitle('Português (Brasil)').click();
    await page.getByLabel('Appearance').click();
    await page.getByTitle('Dark', { exact: true }).click();
    await harness.screenshot(page, 'users-edit');
    await page.getByTestId('user-save').click();
    await expect.poll(async () => (await harness.app.request.get(`/users/${created.body.data.id}`).set(auth())).body.data).toMatchObject({
      first_name: 'Carla', role: editorRole, status: 'active', language: 'pt-BR', appearance: 'dark',
    });
    // The password was left empty: unchanged.
    await harness.app.request.post('/auth/login').send({ email: 'carla@example.com', password: 'carla-password-1' }).expect(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoEnglish } from '../english-leaks.ts';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
let token: string;
beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
});
afterAll(async () => {
  await harness?.close();
});

const flows = async () => (await harness.app.request.get('/flows').set('Authorization', `Bearer ${token}`).expect(200)).body.data as Array<Record<string, unknown>>;

describe('flows screen', () => {
  it('refuses a nameless flow, creates one with its trigger, and toggles its status', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-flows').click();
    await page.getByTestId('flows-title').waitFor();
    await page.getByTestId('flow-create').click();
    await page.getByTestId('flow-save').click();
    await page.getByText('Required.').waitFor();
    expect(await flows()).toHaveLength(0);

    await page.getByTestId('flow-name').fill('Publish reminder');
    await page.getByTestId('flow-trigger').click();
    await page.getByTitle('Schedule (cron)', { exact: true }).click();
    await page.getByTestId('flow-save').click();
    // Creating opens the new flow's editor; the list shows it on the way back.
    await page.getByTestId('flow-editor-title').waitFor();
    await page.goto('/admin/flows');
    await page.getByTestId('flow-row-Publish reminder').waitFor();
    expect(await flows()).toEqual([expect.objectContaining({ name: 'Publish reminder', trigger: 'schedule', status: 'active', accountability: 'all' })]);
    await harness.screenshot(page, 'flows-list');

    await page.getByTestId('flow-status-Publish reminder').click();
    await expect.poll(async () => (await flows())[0]!.status).toBe('inactive');
  });

  it('speaks Brazilian Portuguese with no English left', async () => {
    await harness.app.request.patch('/users/me').set('Authorization', `Bearer ${token}`).send({ language: 'pt-BR' }).expect(200);
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/flows');
    await page.getByText('Agendamento (cron)').waitFor();
    await expectNoEnglish(page);
    await page.getByTestId('flow-create').click();
    await page.getByText('Outro fluxo').or(page.getByText('Atividade e revisões')).first().waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'flows-pt-BR');
    await page.locator('.ant-modal-close').click();
    await page.locator('.ant-modal-wrap').first().waitFor({ state: 'hidden' });
    // The editor too: trigger options, the empty chain and the run log.
    await page.getByTestId('flow-open-Publish reminder').click();
    await page.getByTestId('operation-add-first').waitFor();
    await page.getByText('Nenhuma execução registrada ainda.').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'flows-editor-pt-BR');
    await harness.app.request.patch('/users/me').set('Authorization', `Bearer ${token}`).send({ language: null }).expect(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../../server/jobs/job-queue.ts';
import { startWorker } from '../../../server/webhooks/webhook-worker.ts';
import { startReceiver, type Receiver } from '../../integration/webhooks/receiver.ts';
import { expectNoEnglish } from '../english-leaks.ts';
import { startAdmin, type AdminHarness } from '../harness.ts';

let harness: AdminHarness;
let receiver: Receiver;
let worker: JobWorker;
let token: string;

beforeAll(async () => {
  harness = await startAdmin({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  receiver = await startReceiver();
  worker = await startWorker(harness.app.context, { pollIntervalMs: 100 });
  token = await harness.app.login();
  await harness.app.request.post('/collections').set('Authorization', `Bearer ${token}`).send({ collection: 'articles', fields: [{ field: 'title', type: 'string' }] }).expect(200);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await harness?.close();
});

describe('webhooks screen', () => {
  it('refuses a bad URL on its field, creates a webhook, shows a real delivery in its log, and toggles it off', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.getByTestId('nav-module-webhooks').click();
    await page.getByTestId('webhooks-title').waitFor();

    await page.getByTestId('webhook-create').click();
    await page.getByTestId('webhook-name').fill('Notify');
    await page.getByTestId('webhook-url').fill('ftp://example.com/hook');
    await page.getByTestId('webhook-collections').click();
    await page.keyboard.type('artic');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByTestId('webhook-add-header').click();
    await page.getByTestId('webhook-header-0').fill('X-Bad Header');
    await page.getByTestId('webhook-header-value-0').fill('secret');
    await page.getByTestId('webhook-save').click();
    await page.getByText('Write an absolute http:// or https:// URL.').waitFor();
    await page.getByText('Not a valid HTTP header name.').waitFor();
    await harness.screenshot(page, 'webhooks-validation');
    const none = await harness.app.request.get('/webhooks').set('Authorization', `Bearer ${token}`).expect(200);
    expect(none.body.data).toHaveLength(0);

    await page.getByTestId('webhook-url').fill(`${receiver.url}/hook`);
    await page.getByTestId('webhook-header-0').fill('X-Secret');
    await page.getByTestId('webhook-save').click();
    await page.getByTestId('webhook-row-Notify').waitFor();
    const stored = await harness.app.request.get('/webhooks').set('Authorization', `Bearer ${token}`).expect(200);
    expect(stored.body.data[0]).toMatchObject({ name: 'Notify', method: 'POST', status: 'active', data: true, headers: [{ header: 'X-Secret', value: 'secret' }] });
    await harness.screenshot(page, 'webhooks-list');

    await harness.app.request.post('/items/articles').set('Authorization', `Bearer ${token}`).send({ title: 'Hello' }).expect(200);
    const [call] = await receiver.waitFor(1, '/hook');
    expect(call!.headers['x-secret']).toBe('secret');
    expect(call!.body).toMatchObject({ event: 'items.create', collection: 'articles' });

    await page.getByTestId('webhook-log-Notify').click();
    const attempts = page.getByTestId('webhook-attempts');
    await expect
      .poll(async () => {
        await page.getByTestId('webhook-log-refresh').click();
        return attempts.getByText('Delivered').count();
      }, { timeout: 60_000 })
      .toBe(1);
    await attempts.getByText('items.create · articles').waitFor();
    await attempts.getByRole('cell', { name: '200', exact: true }).waitFor();
    await harness.screenshot(page, 'webhooks-log');
    await page.keyboard.press('Escape');

    await page.getByTestId('webhook-status-Notify').click();
    await expect.poll(async () => (await harness.app.request.get('/webhooks').set('Authorization', `Bearer ${token}`)).body.data[0].status).toBe('inactive');
  });

  it('speaks Brazilian Portuguese with no English left', async () => {
    await harness.app.request.patch('/users/me').set('Authorization', `Bearer ${token}`).send({ language: 'pt-BR' }).expect(200);
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/webhooks');
    await page.getByText('Chame outro sistema quando itens forem criados, atualizados ou excluídos.').waitFor();
    await expectNoEnglish(page);
    await page.getByTestId('webhook-log-Notify').click();
    await page.getByText('Registro de entregas', { exact: false }).waitFor();
    await page.getByText('Entregue').first().waitFor();
    await expectNoEnglish(page);
    await page.keyboard.press('Escape');
    await page.getByTestId('webhook-edit-Notify').click();
    await page.getByText('Enviar os dados do item').waitFor();
    await expectNoEnglish(page);
    await harness.screenshot(page, 'webhooks-pt-BR');
    await harness.app.request.patch('/users/me').set('Authorization', `Bearer ${token}`).send({ language: null }).expect(200);
  });
});

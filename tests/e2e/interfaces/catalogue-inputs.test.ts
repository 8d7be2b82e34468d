import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * The catalogue's second part in the item form: autocomplete from a URL (suggestions fetched by the server
 * through the outbound guard), key-value pairs, and the header with a link and a manual-flow action; in
 * en-US and pt-BR.
 */
let harness: AdminHarness;
let send: Send;
let remote: Server;
const asked: string[] = [];
let flow: string;

beforeAll(async () => {
  remote = createServer((req, res) => {
    asked.push(req.url ?? '');
    const q = (new URL(req.url ?? '/', 'http://remote').searchParams.get('q') ?? '').toLowerCase();
    const cidades = [
      { nome: 'São Paulo', sigla: 'SAO' },
      { nome: 'Salvador', sigla: 'SSA' },
      { nome: 'Recife', sigla: 'REC' },
    ].filter((cidade) => cidade.nome.toLowerCase().startsWith(q));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ dados: { cidades } }));
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  ({ harness, send } = await startSignedInAdmin({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }));
  await send('post', '/collections', {
    collection: 'viagens',
    meta: { display_template: '{{titulo}}' },
    fields: [
      { field: 'titulo', type: 'string' },
      { field: 'situacao', type: 'string' },
      {
        field: 'destino',
        type: 'string',
        meta: { interface: 'input-autocomplete-api', options: { url: `${remoteUrl}/cidades?q={{value}}`, resultsPath: 'dados.cidades', textPath: 'nome', valuePath: 'sigla', trigger: 'debounce', rate: 200 } },
      },
      { field: 'extras', type: 'json', meta: { interface: 'key-value' } },
      { field: 'confirmada', type: 'boolean', meta: { interface: 'boolean', options: { label: 'Confirmada', iconOn: 'check', iconOff: 'close' } } },
    ],
  });
  flow = (await send('post', '/flows', { name: 'Aprovar', status: 'active', trigger: 'manual', options: { collections: ['viagens'] } })).id;
  const operation = (
    await send('post', '/operations', { flow, key: 'aprovar', type: 'item-update', position_x: 1, position_y: 1, options: { collection: '{{ $trigger.collection }}', key: '{{ $trigger.keys }}', payload: { situacao: 'aprovada' }, permissions: '$trigger' } })
  ).id;
  await send('patch', `/flows/${flow}`, { operation });
  await send('post', '/fields/viagens', {
    field: 'cabecalho',
    type: 'alias',
    meta: {
      special: ['alias', 'no-data'],
      interface: 'header',
      options: {
        title: 'Viagem: {{titulo}}',
        subtitle: 'Destino {{destino}}',
        help: 'Confira o destino antes de aprovar.',
        links: [
          { label: 'Mapa', actionType: 'url', url: 'https://example.test/mapa?q={{destino}}' },
          { label: 'Aprovar', actionType: 'flow', flow, type: 'primary' },
        ],
      },
      sort: 1,
    },
  });
});
afterAll(async () => {
  await harness?.close();
  remote?.closeAllConnections();
  await new Promise((resolve) => remote?.close(resolve));
});

describe('catalogue inputs', () => {
  it('suggests from the URL through the server, edits key-value pairs, and runs the header flow on the saved item', async () => {
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/content/viagens/+');
    // Before the item exists the flow action waits for it; the header fills in as the form is typed.
    await page.getByTestId('header-cabecalho').getByText('Viagem:').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('header-action-1').isDisabled()).toBe(true);
    await page.locator('#field-titulo').fill('Férias');
    await page.getByTestId('header-cabecalho').getByText('Viagem: Férias').waitFor();

    await page.locator('#field-destino').fill('s');
    const option = page.locator('.ant-select-item-option', { hasText: 'Salvador' });
    await option.waitFor();
    expect(await page.locator('.ant-select-item-option').allTextContents()).toEqual(['São Paulo', 'Salvador']);
    await option.click();
    expect(await page.locator('#field-destino').inputValue()).toBe('SSA');
    // The browser asked the API, and the API asked the remote address (the browser never called it).
    expect(asked).toContain('/cidades?q=s');
    expect(await page.getByTestId('header-action-0').getAttribute('href')).toBe('https://example.test/mapa?q=SSA');

    await page.getByTestId('key-value-add-extras').click();
    await page.getByTestId('key-value-extras').getByLabel('Key').last().fill('quarto');
    await page.getByTestId('key-value-extras').getByLabel('Value').last().fill('duplo');
    await page.getByTestId('key-value-add-extras').click();
    await page.getByTestId('key-value-extras').getByLabel('Key').last().fill('andar');
    await page.getByTestId('key-value-extras').getByLabel('Value').last().fill('3');
    await page.locator('#field-confirmada .anticon-close').waitFor();
    await page.locator('#field-confirmada').click();
    await page.locator('#field-confirmada .anticon-check').waitFor();
    await page.getByTestId('header-help-cabecalho').click();
    await page.getByTestId('header-help-text-cabecalho').getByText('Confira o destino').waitFor();
    await harness.screenshot(page, 'interfaces-catalogue-inputs');

    const created = page.waitForResponse((response) => response.url().includes('/items/viagens') && response.request().method() === 'POST');
    await page.getByTestId('save-item').click();
    const body = await (await created).json();
    expect(body.data).toMatchObject({ titulo: 'Férias', destino: 'SSA', extras: { quarto: 'duplo', andar: '3' }, confirmada: true });

    await page.goto(`/admin/content/viagens/${body.data.id}`);
    await page.getByTestId('key-value-extras').getByLabel('Value').first().waitFor();
    await page.getByTestId('header-action-1').click();
    await page.getByText('Flow "Aprovar" started.').waitFor();
    await expect.poll(async () => (await send('get', `/items/viagens/${body.data.id}`)).situacao, { timeout: 60_000 }).toBe('aprovada');
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await harness.newPage();
    await harness.signIn(page);
    const viagem = await send('post', '/items/viagens', { titulo: 'Congresso', destino: 'REC', extras: { sala: 'B' } });
    await page.goto(`/admin/content/viagens/${viagem.id}`);
    await page.getByTestId('key-value-extras').getByLabel('Chave').first().waitFor({ timeout: 60_000 });
    await page.getByText('Adicionar um par').waitFor();
    await page.getByTestId('header-action-1').click();
    await page.getByText('Fluxo "Aprovar" iniciado.').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
    await page.goto('/admin/data-model/viagens');
    await page.getByTestId('field-edit-destino').click();
    await page.getByText('Caminho dos resultados').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
    await harness.screenshot(page, 'interfaces-catalogue-inputs-pt-BR');
  });
});

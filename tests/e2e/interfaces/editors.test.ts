import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../../helpers/images.ts';
import { englishLeaks } from '../english-leaks.ts';
import type { AdminHarness } from '../harness.ts';
import { animationsDone, chooseOption, startSignedInAdmin, type Send } from './interface-kit.ts';

/**
 * The heavy editors of issue 33: rich text (Tiptap; images from the library; sanitised), code (CodeMirror;
 * JSON linted with the place of the error, stored parsed) and the block editor (Editor.js JSON), each
 * loaded on first use, with their options forms in the field drawer.
 */
let harness: AdminHarness;
let send: Send;
let imageId: string;

beforeAll(async () => {
  ({ harness, send } = await startSignedInAdmin());
  await send('post', '/collections', {
    collection: 'receitas',
    meta: { display_template: '{{titulo}}' },
    fields: [
      { field: 'titulo', type: 'string' },
      { field: 'corpo', type: 'text', meta: { interface: 'input-rich-text-html' } },
      { field: 'config', type: 'json', meta: { interface: 'input-code' } },
      { field: 'trecho', type: 'text', meta: { interface: 'input-code', options: { language: 'javascript' } } },
      { field: 'blocos', type: 'json', meta: { interface: 'input-block-editor', options: { tools: ['header', 'paragraph', 'nestedlist', 'quote', 'image'] } } },
    ],
  });
  const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${await harness.app.login()}`).attach('file', await pngImage(64, 48, '#e8590c'), 'prato.png');
  expect(upload.status).toBe(200);
  imageId = upload.body.data.id;
});
afterAll(async () => {
  await harness?.close();
});

/**
 * A signed-in page with longer waits than the harness's: each editor's chunk is fetched the first time
 * it is shown, in every new browser context, and a machine busy with other suites makes that slow.
 */
async function openPage(): Promise<Page> {
  const page = await harness.newPage();
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(60_000);
  await harness.signIn(page);
  return page;
}

/** Picks the uploaded picture in the library modal. */
async function pickLibraryImage(page: Page): Promise<void> {
  await page.locator('.ant-modal').getByTestId('file-browser').getByTestId('file-card-prato.png').click();
  await page.locator('.ant-modal').getByTestId('file-browser').waitFor({ state: 'detached' });
}

/** Adds a block of the given tool after the current one through Editor.js's toolbox. */
async function addBlock(page: Page, tool: string): Promise<void> {
  await page.locator('.ce-toolbar__plus').click();
  await page.locator(`.ce-popover--opened [data-item-name="${tool}"]`).click();
}

describe('heavy editors', () => {
  it('formats rich text with a library image, lints JSON with its place, and stores Editor.js blocks', async () => {
    const page = await openPage();
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(request.url()));
    await page.goto('/admin/content/receitas/+');
    await page.locator('#field-titulo').fill('Lasanha');

    // Rich text: bold from the toolbar, a heading, an image from the file library.
    const corpo = page.locator('#field-corpo');
    await corpo.click();
    await page.keyboard.type('Massa ');
    await page.getByTestId('rich-text-tool-bold').click();
    await page.keyboard.type('fresca');
    await page.getByTestId('rich-text-tool-bold').click();
    await page.keyboard.type(' e molho.');
    await page.keyboard.press('Enter');
    await page.getByTestId('rich-text-tool-h2').click();
    await page.keyboard.type('Preparo');
    await page.getByTestId('rich-text-tool-customImage').click();
    await pickLibraryImage(page);
    await corpo.locator(`img[src="/assets/${imageId}"]`).waitFor();

    // Code: the JSON lint says where the text stops being JSON; the field stores the parsed value.
    const config = page.locator('#field-config');
    await config.fill('{ "porcoes": 4, }');
    await page.getByTestId('code-config').getByTestId('code-problem').getByText('Not JSON: unexpected “}” at line 1, column 17').waitFor();
    await page.getByTestId('code-config').locator('.cm-lintRange-error').waitFor();
    await config.fill('{ "porcoes": ');
    await page.getByTestId('code-config').getByText('Not JSON: the text ends too early (line 1, column 14)').waitFor();
    await config.fill('{ "porcoes": 4, "forno": true }');
    await page.getByTestId('code-config').getByTestId('code-problem').waitFor({ state: 'detached' });
    await page.locator('#field-trecho').fill('const porcoes = 4;');
    // JavaScript is highlighted by its own grammar (a keyword token).
    await page.getByTestId('code-trecho').locator('.cm-line span').first().waitFor();

    // Block editor: a paragraph, a heading, a list item and a picture from the library.
    const blocos = page.getByTestId('block-editor-blocos');
    await blocos.locator('.ce-paragraph').first().click();
    await page.keyboard.type('Uma receita de família.');
    await page.keyboard.press('Enter');
    await addBlock(page, 'header');
    await page.keyboard.type('Ingredientes');
    await page.keyboard.press('Enter');
    await addBlock(page, 'image');
    await blocos.getByTestId('block-image-choose').click();
    await pickLibraryImage(page);
    await blocos.locator(`img[src="/assets/${imageId}"]`).waitFor();
    await harness.screenshot(page, 'interfaces-editors-form');

    const created = page.waitForResponse((response) => response.url().includes('/items/receitas') && response.request().method() === 'POST');
    await page.getByTestId('save-item').click();
    expect((await created).status()).toBe(200);
    const [receita] = await send('get', '/items/receitas?fields=id,corpo,config,trecho,blocos&filter[titulo][_eq]=Lasanha');
    expect(receita.corpo).toContain('<p>Massa <strong>fresca</strong> e molho.</p><h2>Preparo</h2>');
    expect(receita.corpo).toContain(`<img src="/assets/${imageId}" alt="Prato">`);
    expect(receita.config).toEqual({ porcoes: 4, forno: true });
    expect(receita.trecho).toBe('const porcoes = 4;');
    expect(receita.blocos).toMatchObject({ time: expect.any(Number), version: expect.stringMatching(/^2\./) });
    expect(receita.blocos.blocks.map((block: { type: string; id: string }) => [block.type, typeof block.id])).toEqual([
      ['paragraph', 'string'],
      ['header', 'string'],
      ['image', 'string'],
    ]);
    expect(receita.blocos.blocks[0].data).toEqual({ text: 'Uma receita de família.' });
    expect(receita.blocos.blocks[1].data).toMatchObject({ text: 'Ingredientes', level: 2 });
    expect(receita.blocos.blocks[2].data).toMatchObject({ file: { url: `/assets/${imageId}`, fileId: imageId } });
    // The editors came in their own chunks, after the first screen.
    expect(loaded.some((url) => /\/admin\/assets\/rich-text-editor-[\w-]+\.js$/.test(url))).toBe(true);
    expect(loaded.some((url) => /\/admin\/assets\/block-editor-[\w-]+\.js$/.test(url))).toBe(true);
    await page.close();
  });

  it('does not run a stored <img onerror> or <script> when the form opens', async () => {
    const [item] = await send('post', '/items/receitas', [
      {
        titulo: 'Armadilha',
        corpo: '<p>Oi</p><img src="/nada.png" onerror="window.__xss = \'rich\'"><script>window.__xss = \'script\'</script><a href="javascript:window.__xss=1">link</a>',
        blocos: { time: 1, version: '2.31.0', blocks: [{ id: 'a', type: 'paragraph', data: { text: 'Texto <img src="/nada.png" onerror="window.__xss = \'blocks\'">' } }] },
      },
    ]);
    const page = await openPage();
    await page.goto(`/admin/content/receitas/${item.id}`);
    await page.locator('#field-corpo').getByText('Oi').waitFor();
    await page.getByTestId('block-editor-blocos').locator('.ce-paragraph').getByText('Texto').waitFor();
    expect(await page.locator('#field-corpo').innerHTML()).not.toMatch(/onerror|<script|javascript:/);
    expect(await page.getByTestId('block-editor-blocos').innerHTML()).not.toMatch(/onerror/);
    // A broken image of our own errors after the editors' would have: then nothing may have run.
    await page.evaluate(() => new Promise((resolve) => Object.assign(document.body.appendChild(document.createElement('img')), { onerror: resolve, src: '/nada.png?probe' })));
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    await page.close();
  });

  it('sets the rich text toolbar and a soft length in the field drawer', async () => {
    const page = await openPage();
    await page.goto('/admin/data-model/receitas');
    await page.getByTestId('field-edit-corpo').click();
    await page.getByTestId('option-toolbar').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Strikethrough', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('option-softLength').locator('input').fill('300');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/receitas/corpo')).meta.options).toMatchObject({ toolbar: expect.arrayContaining(['bold', 'strikethrough']), softLength: 300 });

    // The form follows: a strikethrough button and the characters left.
    await page.goto('/admin/content/receitas/+');
    await page.getByTestId('rich-text-tool-strikethrough').waitFor();
    await page.getByTestId('rich-text-remaining').getByText('300 characters left').waitFor();
    await page.close();
  });

  it('sets the code language and the block tools in the field drawer', async () => {
    const page = await openPage();
    await page.goto('/admin/data-model/receitas');
    await page.getByTestId('field-edit-trecho').click();
    await chooseOption(page, 'option-language', 'YAML');
    await page.getByTestId('option-lineWrapping').locator('button').click();
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/receitas/trecho')).meta.options).toMatchObject({ language: 'yaml', lineWrapping: true });

    await page.getByTestId('field-edit-blocos').click();
    await page.getByTestId('option-tools').locator('.ant-select').click();
    // The list slides in: a click while it moves can miss the option and save the tools without it.
    const delimiter = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle('Delimiter', { exact: true });
    await delimiter.waitFor();
    await animationsDone(page);
    await delimiter.click();
    await expect.poll(() => page.getByTestId('option-tools').locator('.ant-select-selection-item').allTextContents()).toContain('Delimiter');
    await page.keyboard.press('Escape');
    await page.getByTestId('field-save').click();
    await expect.poll(async () => (await send('get', '/fields/receitas/blocos')).meta.options.tools).toContain('delimiter');

    // The form follows: a delimiter in the block toolbox, opened with "/" in the empty block (the "+" button
    // shows only while the pointer rests on the block). The editors above grow as they are made, which can move
    // the block from under a click (the "/" then goes to another editor), and the form's first value redraws
    // the blocks, dropping the caret. Editor.js opens the toolbox while it handles the key, so once the key
    // is pressed the toolbox is open, or the key went elsewhere and the block is clicked again.
    await page.goto('/admin/content/receitas/+');
    await page.locator('#field-corpo').waitFor();
    await page.getByTestId('code-trecho').locator('.cm-content').waitFor();
    const paragraph = page.getByTestId('block-editor-blocos').locator('.ce-paragraph').first();
    const caretInParagraph = () => paragraph.evaluate((element) => element.contains(document.activeElement));
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 10) throw new Error('"/" in the empty block did not open the toolbox in 10 tries');
      await animationsDone(page);
      // "/" opens the toolbox only in an empty block.
      await paragraph.evaluate((element) => void (element.textContent = ''));
      await paragraph.click();
      if (!(await caretInParagraph())) continue;
      await page.keyboard.press('/');
      if ((await page.locator('.ce-popover--opened').count()) > 0) break;
    }
    await page.locator('.ce-popover--opened [data-item-name="delimiter"]').waitFor();
    await page.close();
  });

  it('speaks Brazilian Portuguese', async () => {
    await send('patch', '/users/me', { language: 'pt-BR' });
    const page = await openPage();
    const [receita] = await send('get', '/items/receitas?fields=id&filter[titulo][_eq]=Lasanha');
    await page.goto(`/admin/content/receitas/${receita.id}`);
    await page.getByRole('button', { name: 'Negrito' }).waitFor();
    // The item's value first, so what is typed is not replaced by it arriving.
    await page.getByTestId('code-config').getByText('"porcoes"').waitFor();
    await page.locator('#field-config').fill('[1, 2');
    await page.getByTestId('code-config').getByText('Não é JSON: o texto acaba antes da hora (linha 1, coluna 6)').waitFor();
    await page.locator('#field-config').fill('{ "porcoes": 6 }');
    await page.getByTestId('block-editor-blocos').locator('.ce-paragraph').first().click();
    await page.locator('.ce-toolbar__plus').click();
    await page.locator('.ce-popover--opened [data-item-name="header"]').getByText('Título').waitFor();
    await page.keyboard.press('Escape');
    expect(await englishLeaks(page)).toEqual([]);
    await harness.screenshot(page, 'interfaces-editors-pt-BR');

    await page.goto('/admin/data-model/receitas');
    await page.getByTestId('field-edit-corpo').click();
    await page.getByTestId('option-toolbar').getByText('Barra de ferramentas').waitFor();
    await page.getByTestId('option-toolbar').getByText('Tachado').waitFor();
    expect(await englishLeaks(page)).toEqual([]);
  });
});

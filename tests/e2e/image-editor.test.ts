import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelAt, twoColourImage } from '../helpers/images.ts';
import { callApi, startAdmin, type AdminHarness, type ApiMethod } from './harness.ts';

/** The browser APIs this file reads (the test project's types have no DOM). */
type CanvasElement = { width: number; height: number };

let harness: AdminHarness;
let token: string;

const api = (method: ApiMethod, path: string, body?: object) => callApi(harness, token, method, path, body);

async function asset(id: string): Promise<Buffer> {
  const response = await harness.app.request.get(`/assets/${id}`).set('Authorization', `Bearer ${token}`).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  expect(response.status).toBe(200);
  return response.body as Buffer;
}

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('patch', '/settings', { custom_aspect_ratios: [{ text: 'Banner 3:1', value: 3 }] });
});
afterAll(async () => {
  await harness?.close();
});

describe('the image editor in the file library', () => {
  it('rotates, crops to a custom ratio and saves new content under the same id; then sets a focal point', async () => {
    // 400×200, left half red, right half blue.
    const upload = await harness.app.request.post('/files').set('Authorization', `Bearer ${token}`).attach('file', await twoColourImage(400, 200), 'halves.png');
    expect(upload.status).toBe(200);
    const id = upload.body.data.id as string;

    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto('/admin/files');
    const card = page.getByTestId('file-card-halves.png');
    await card.getByTestId('file-edit-image').click();
    const canvas = page.getByTestId('image-canvas');
    await expect.poll(() => canvas.evaluate((element) => (element as unknown as CanvasElement).width)).toBe(400);

    await page.getByTestId('image-rotateRight').click();
    await expect.poll(() => canvas.evaluate((element) => [(element as unknown as CanvasElement).width, (element as unknown as CanvasElement).height])).toEqual([200, 400]);
    await expect.poll(() => page.getByTestId('image-size').textContent()).toBe('200×400');
    // The project's own ratio sits beside the presets; choosing it draws the largest centred 3:1 crop.
    for (const preset of ['Free', '1:1', '4:3', '16:9']) await page.getByTestId('image-ratio').getByText(preset, { exact: true }).waitFor();
    await page.getByTestId('image-ratio').getByText('Banner 3:1', { exact: true }).click();
    await expect.poll(() => page.getByTestId('image-size').textContent()).toBe('200×67');
    await page.locator('.ReactCrop__crop-selection').waitFor();
    await harness.screenshot(page, 'image-editor-custom-ratio');

    const saved = page.waitForResponse((response) => response.url().endsWith(`/files/${id}/edit`));
    await page.getByTestId('image-save').click();
    expect((await saved).status()).toBe(200);
    await expect.poll(async () => (await api('get', `/files/${id}?fields=width,height`))).toEqual({ width: 200, height: 67 });
    await card.getByText('200×67').waitFor();
    // Turned clockwise, the red half is on top: the centred band (rows 167–233 of 400) is red above row 200, blue below.
    const bytes = await asset(id);
    expect(await pixelAt(bytes, 100, 10)).toEqual([255, 0, 0]);
    expect(await pixelAt(bytes, 100, 60)).toEqual([0, 0, 255]);

    // The focal point: picked on the picture, stored in its pixels.
    await card.getByTestId('file-edit-image').click();
    await expect.poll(() => canvas.evaluate((element) => (element as unknown as CanvasElement).width)).toBe(200);
    await page.getByTestId('image-focalPoint').click();
    // The focal tool swaps the cropping canvas for a crosshair one: click only once it is there.
    await expect.poll(() => page.getByTestId('image-canvas').evaluate((element) => (element as unknown as { style: { cursor: string } }).style.cursor)).toBe('crosshair');
    const box = (await page.getByTestId('image-canvas').boundingBox())!;
    await page.getByTestId('image-canvas').click({ position: { x: box.width * 0.75, y: box.height * 0.5 } });
    // The marker moves to where the click was, on the picture.
    const markerOffset = async () => {
      const marker = (await page.getByTestId('image-focal-marker').boundingBox())!;
      return [Math.round(Math.abs(marker.x + marker.width / 2 - (box.x + box.width * 0.75))), Math.round(Math.abs(marker.y + marker.height / 2 - (box.y + box.height * 0.5)))];
    };
    await expect.poll(async () => (await markerOffset()).every((offset) => offset <= 2)).toBe(true);
    await harness.screenshot(page, 'image-editor-focal-point');
    const focalSaved = page.waitForResponse((response) => response.url().endsWith(`/files/${id}/edit`));
    await page.getByTestId('image-save').click();
    expect((await focalSaved).status()).toBe(200);
    const focal = await api('get', `/files/${id}?fields=focal_point_x,focal_point_y`);
    expect(Math.abs(focal.focal_point_x - 150)).toBeLessThanOrEqual(2);
    expect(Math.abs(focal.focal_point_y - 33)).toBeLessThanOrEqual(2);
  });
});

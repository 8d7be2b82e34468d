import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../helpers/images.ts';
import { startAdmin, type AdminHarness } from './harness.ts';

let harness: AdminHarness;
let token: string;

async function api(method: 'get' | 'post', path: string, body?: object) {
  const response = await harness.app.request[method](path).set('Authorization', `Bearer ${token}`).send(body);
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body?.data;
}

beforeAll(async () => {
  harness = await startAdmin();
  token = await harness.app.login();
  await api('post', '/collections', {
    collection: 'sites',
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      { field: 'name', type: 'string', meta: { sort: 1 } },
      { field: 'location', type: 'geometry.Point', meta: { sort: 2 } },
      { field: 'area', type: 'geometry.Polygon', meta: { sort: 3 } },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

describe('the map interface of geometry fields', () => {
  it('places a point and draws a polygon with clicks, on a blank map that fetches nothing, and saves GeoJSON', async () => {
    const page = await harness.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol.startsWith('http')) outside.push(request.url());
    });
    await harness.signIn(page);
    expect((await api('get', '/fields/sites/location')).meta.interface).toBe('map');
    await page.goto('/admin/content/sites/+');
    await page.locator('#field-name').fill('Harbour');
    const location = page.getByTestId('map-location').getByTestId('map-canvas');
    await location.locator('canvas').waitFor();
    // The blank map starts at [0, 0], zoom 2 (512-px tiles): 360° / 2048 px per pixel at the equator.
    const box = (await location.boundingBox())!;
    await location.click({ position: { x: box.width / 2 + 100, y: box.height / 2 } });
    const area = page.getByTestId('map-area');
    const areaCanvas = area.getByTestId('map-canvas');
    await areaCanvas.locator('canvas').waitFor();
    const areaBox = (await areaCanvas.boundingBox())!;
    const centre = { x: areaBox.width / 2, y: areaBox.height / 2 };
    for (const [dx, dy] of [[0, 0], [60, 0], [60, -60]]) await areaCanvas.click({ position: { x: centre.x + dx!, y: centre.y + dy! } });
    await area.getByTestId('map-finish').click();
    await harness.screenshot(page, 'map-field');
    await page.getByTestId('save-item').click();

    await expect.poll(async () => (await api('get', '/items/sites?fields=name')).length, { timeout: 60_000 }).toBe(1);
    const [site] = await api('get', '/items/sites?fields=name,location,area');
    expect(site.name).toBe('Harbour');
    expect(site.location.type).toBe('Point');
    const [lng, lat] = site.location.coordinates;
    expect(Math.abs(lng - 100 * (360 / 2048))).toBeLessThan(0.5);
    expect(Math.abs(lat)).toBeLessThan(0.5);
    expect(site.area.type).toBe('Polygon');
    const ring = site.area.coordinates[0];
    expect(ring).toHaveLength(4);
    expect(ring[0]).toEqual(ring[3]);
    expect(ring[1][0]).toBeGreaterThan(ring[0][0]);
    expect(ring[2][1]).toBeGreaterThan(ring[1][1]);
    // The blank style has no tiles, glyphs or sprites: nothing left the machine.
    expect(outside).toEqual([]);
  });

  it('shows the collection as a map layout that asks for the items in view with _intersects_bbox', async () => {
    await api('post', '/items/sites', [
      { name: 'Far', location: { type: 'Point', coordinates: [120, 40] } },
      { name: 'Near', location: { type: 'Point', coordinates: [10, -5] } },
    ]);
    const page = await harness.newPage();
    const bboxReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/items/sites') && decodeURIComponent(request.url()).includes('_intersects_bbox')) bboxReads.push(request.url());
    });
    await harness.signIn(page);
    await page.goto('/admin/content/sites');
    await page.getByTestId('layout-switch').getByText('Map', { exact: true }).click();
    const layout = page.getByTestId('map-layout');
    await layout.locator('canvas').waitFor();
    await expect.poll(() => page.getByTestId('map-layout-count').textContent(), { timeout: 60_000 }).toBe('3 items in view');
    await harness.screenshot(page, 'map-layout');
    expect(bboxReads.length).toBeGreaterThan(0);
    // Zooming in on the middle of the view leaves the points outside it: the next read finds fewer.
    const box = (await layout.locator('canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 10);
    for (let step = 0; step < 6; step += 1) await page.mouse.wheel(0, -600);
    await expect.poll(() => page.getByTestId('map-layout-count').textContent(), { timeout: 60_000 }).not.toBe('3 items in view');
    // The list's search applies to the map too.
    await page.getByTestId('search').fill('Far');
    await page.getByTestId('search').press('Enter');
    await page.getByTestId('layout-switch').getByText('Table', { exact: true }).click();
    await page.getByTestId('layout-switch').getByText('Map', { exact: true }).click();
    await expect.poll(() => page.getByTestId('map-layout-count').textContent(), { timeout: 60_000 }).toBe('1 item in view');
  });

  it('draws the project’s raster basemap from its configured tile URL', async () => {
    const tile = await pngImage(256, 256, '#b7d7a8');
    const requested: string[] = [];
    const tiles = createServer((req, res) => {
      requested.push(req.url ?? '');
      if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '')) return void res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*' }).end(tile);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`;
      await harness.app.request.patch('/settings').set('Authorization', `Bearer ${token}`).send({ basemaps: [{ name: 'Local tiles', type: 'raster', url, tileSize: 256, attribution: 'Local test tiles' }] }).expect(200);
      const page = await harness.newPage();
      await harness.signIn(page);
      await page.goto('/admin/content/sites/+');
      await page.getByTestId('map-location').locator('canvas').waitFor();
      await expect.poll(() => requested.filter((path) => path.startsWith('/tiles/')).length, { timeout: 60_000 }).toBeGreaterThan(0);
      await page.getByTestId('map-location').getByText('Local test tiles').waitFor();
      await harness.screenshot(page, 'map-field-basemap');
    } finally {
      await harness.app.request.patch('/settings').set('Authorization', `Bearer ${token}`).send({ basemaps: null });
      tiles.closeAllConnections();
      await new Promise((resolve) => tiles.close(resolve));
    }
  });
  it('moves a polygon vertex with terra-draw and saves the moved position', async () => {
    const square = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
    const site = await api('post', '/items/sites', { name: 'Field', area: { type: 'Polygon', coordinates: [square] } });
    const page = await harness.newPage();
    await harness.signIn(page);
    await page.goto(`/admin/content/sites/${site.id}`);
    const area = page.getByTestId('map-area');
    const canvas = area.getByTestId('map-canvas');
    await canvas.locator('canvas').waitFor();
    await area.getByTestId('map-edit').click();
    await area.getByText('Done moving').waitFor();
    // Mouse positions are the viewport's: the map must be in view.
    await canvas.scrollIntoViewIfNeeded();
    // The map fits the square with 40 px of padding into its 320 px height: 240 px for 10.05 Mercator degrees.
    const box = (await canvas.boundingBox())!;
    const perDegree = 240 / 10.05;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const vertex = { x: centre.x + 5 * perDegree, y: centre.y + 5.025 * perDegree };
    // The square starts selected (a single shape); its vertex (10, 0) is dragged 48 px east.
    await page.mouse.move(vertex.x, vertex.y);
    await page.mouse.down();
    await page.mouse.move(vertex.x + 48, vertex.y, { steps: 12 });
    await page.mouse.up();
    await harness.screenshot(page, 'map-field-vertex-moved');
    await page.getByTestId('save-item').click();

    await expect.poll(async () => (await api('get', `/items/sites/${site.id}?fields=area`)).area.coordinates[0][1][0], { timeout: 60_000 }).toBeGreaterThan(11);
    const ring = (await api('get', `/items/sites/${site.id}?fields=area`)).area.coordinates[0];
    expect(ring[1][0]).toBeLessThan(13);
    expect(Math.abs(ring[1][1])).toBeLessThan(0.5);
    // The other vertices stay where they were, and the ring stays closed.
    expect(ring[0]).toEqual([0, 0]);
    expect(ring[2]).toEqual([10, 10]);
    expect(ring[3]).toEqual([0, 10]);
    expect(ring.at(-1)).toEqual(ring[0]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsService } from '../../../server/services/settings-service.ts';
import { ItemsService } from '../../../server/services/items/items-service.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('settings writes follow SPEC §5 whatever the path', () => {
  let t: TestApp;
  let auth: { Authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.login()}` };
  });
  afterAll(() => t.close());

  it.each([
    [{ basemaps: [{ type: 'raster', url: 'https://tiles.example/{z}/{x}/{y}.png' }] }, 'basemaps[0].name', /name is required/],
    [{ basemaps: [{ name: 'OSM', url: 'https://tiles.example/{z}/{x}/{y}.png' }, { name: 'Sat' }] }, 'basemaps[1].url', /url is required/],
    [{ basemaps: [{ name: 'OSM', type: 'vector', url: 'https://x.example' }] }, 'basemaps[0].type', /raster, tile, style/],
    [{ basemaps: [{ name: 'OSM', type: 'tile', url: 'https://x.example', tileSize: -2 }] }, 'basemaps[0].tileSize', /positive/],
    [{ basemaps: { name: 'OSM' } }, 'basemaps', /must be a list/],
    [{ custom_aspect_ratios: [{ text: '16:9' }] }, 'custom_aspect_ratios[0].value', /value is required/],
    [{ custom_aspect_ratios: [{ text: 'wide', value: '16/9' }] }, 'custom_aspect_ratios[0].value', /must be a number/],
    [{ storage_asset_presets: [{ key: 'Not A Slug', fit: 'cover' }] }, 'storage_asset_presets[0].key', /slug-like/],
  ])('refuses %j with 400 naming %s', async (payload, field, message) => {
    const response = await t.request.patch('/settings').set(auth).send(payload).expect(400);
    expect(response.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field });
    expect(response.body.errors[0].message).toMatch(message);
  });

  it('stores valid lists with their defaults filled', async () => {
    const response = await t.request
      .patch('/settings')
      .set(auth)
      .send({ basemaps: [{ name: 'OSM', url: 'https://tiles.example/{z}/{x}/{y}.png' }], custom_aspect_ratios: [{ text: '16:9', value: 1.7778 }] })
      .expect(200);
    expect(response.body.data.basemaps).toEqual([{ name: 'OSM', type: 'raster', url: 'https://tiles.example/{z}/{x}/{y}.png' }]);
    expect(response.body.data.custom_aspect_ratios).toEqual([{ text: '16:9', value: 1.7778 }]);
  });

  it('applies the same rules to services used without HTTP', async () => {
    const service = new ItemsService('tessera_settings', { ...t.system, schema: await t.context.schema.get() });
    await expect(service.upsertSingleton({ basemaps: [{ name: 'no url' }] })).rejects.toMatchObject({ code: 'INVALID_PAYLOAD' });
    const settings = await new SettingsService(t.system).read();
    expect(settings?.basemaps).toEqual([{ name: 'OSM', type: 'raster', url: 'https://tiles.example/{z}/{x}/{y}.png' }]);
  });
});

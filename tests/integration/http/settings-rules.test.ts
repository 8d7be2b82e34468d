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
    [{ default_language: 'zz' }, 'default_language', /unknown language "zz"/],
    [{ default_language: 'zz-US' }, 'default_language', /unknown language "zz"/],
    [{ default_language: 'en_US' }, 'default_language', /not a BCP 47 language tag/],
    [{ default_language: 42 }, 'default_language', /must be a language tag/],
    [{ report_bug_url: 'not a url' }, 'report_bug_url', /http\(s\) URL/],
    [{ report_feature_url: 'ftp://example.test/ideas' }, 'report_feature_url', /http\(s\) URL/],
    [{ report_feature_url: 'javascript:alert(1)' }, 'report_feature_url', /http\(s\) URL/],
    [{ report_error_url: 'mailto:admin@example.test' }, 'report_error_url', /http\(s\) URL/],
    [{ report_error_url: 'https://example.test/report?e={{ secrets }}' }, 'report_error_url', /unknown placeholder "\{\{ secrets \}\}"/],
    [{ report_error_url: 'https://example.test/report?e={{ error' }, 'report_error_url', /unclosed/],
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

  it('stores a known language (canonical form) and http(s) report URLs with Directus placeholders', async () => {
    const errorUrl = 'https://tracker.example.test/new?title={{ error.message }}&page={{route.fullPath}}&ua={{ navigator.userAgent }}&who={{ user.email }}&role={{ role.name }}';
    const response = await t.request
      .patch('/settings')
      .set(auth)
      .send({ default_language: 'pt-br', report_bug_url: 'https://tracker.example.test/bugs', report_feature_url: 'http://tracker.example.test/ideas', report_error_url: errorUrl })
      .expect(200);
    expect(response.body.data).toMatchObject({ default_language: 'pt-BR', report_bug_url: 'https://tracker.example.test/bugs', report_feature_url: 'http://tracker.example.test/ideas', report_error_url: errorUrl });
    const cleared = await t.request.patch('/settings').set(auth).send({ report_bug_url: null, report_feature_url: '' }).expect(200);
    expect(cleared.body.data).toMatchObject({ report_bug_url: null, report_feature_url: null });
  });

  it('applies the same rules to services used without HTTP', async () => {
    const service = new ItemsService('tessera_settings', { ...t.system, schema: await t.context.schema.get() });
    await expect(service.upsertSingleton({ basemaps: [{ name: 'no url' }] })).rejects.toMatchObject({ code: 'INVALID_PAYLOAD' });
    const settings = await new SettingsService(t.system).read();
    expect(settings?.basemaps).toEqual([{ name: 'OSM', type: 'raster', url: 'https://tiles.example/{z}/{x}/{y}.png' }]);
  });
});

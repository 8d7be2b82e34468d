import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let auth: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  auth = { authorization: `Bearer ${await t.login()}` };
  await t.request
    .post('/collections')
    .set(auth)
    .send({
      collection: 'surveys',
      fields: [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
        { field: 'site', type: 'geometry.Point' },
        { field: 'shape', type: 'geometry' },
        { field: 'visitors', type: 'bigInteger', schema: { is_nullable: false } },
        { field: 'budget', type: 'decimal', schema: { is_nullable: false } },
        { field: 'surveyed_on', type: 'date', schema: { is_nullable: false } },
        { field: 'started_at', type: 'time', schema: { is_nullable: false } },
        { field: 'logged_at', type: 'dateTime', schema: { is_nullable: false } },
        { field: 'synced_at', type: 'timestamp', schema: { is_nullable: false } },
      ],
    })
    .expect(200);
});
afterAll(() => t?.close());

// Issue 37 item 7: the spec types each field as REST sends it (server/schema/field-type-table.ts).
it('types geometry fields as GeoJSON objects, bigInteger and decimal as strings, dates and times as ISO strings', async () => {
  const document = (await t.request.get('/server/specs/oas').set(auth).expect(200)).body;
  const result = await new Validator().validate(document);
  expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
  const fields = document.components.schemas.ItemsSurveys.properties;
  expect(fields.site).toEqual({ type: ['object', 'null'], description: 'A GeoJSON geometry (RFC 7946): Point.', required: ['type'], properties: { type: { type: 'string', enum: ['Point'] }, coordinates: { type: 'array' } } });
  const shape = fields.shape;
  expect(shape).toMatchObject({ type: ['object', 'null'], required: ['type'], properties: { geometries: { type: 'array' } } });
  expect(shape.properties.type.enum).toEqual(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection']);
  expect(fields.visitors).toEqual({ type: 'string', format: 'int64' });
  expect(fields.budget).toEqual({ type: 'string', format: 'decimal' });
  expect(fields.surveyed_on).toEqual({ type: 'string', format: 'date' });
  expect(fields.started_at).toEqual({ type: 'string', format: 'time' });
  expect(fields.logged_at).toEqual({ type: 'string', format: 'date-time' });
  expect(fields.synced_at).toEqual({ type: 'string', format: 'date-time' });
});

it('describes what REST really returns for those fields', async () => {
  const site = { type: 'Point', coordinates: [2.35, 48.85] };
  const created = (
    await t.request
      .post('/items/surveys')
      .set(auth)
      .send({ site, visitors: '9007199254740993', budget: '12.50000', surveyed_on: '2026-11-26', started_at: '08:30:00', logged_at: '2026-11-26T08:30:00', synced_at: '2026-11-26T08:30:00Z' })
      .expect(200)
  ).body.data;
  expect(created.site).toEqual(site);
  expect(typeof created.visitors).toBe('string');
  expect(typeof created.budget).toBe('string');
  expect(created.surveyed_on).toBe('2026-11-26');
  expect(typeof created.synced_at).toBe('string');
});

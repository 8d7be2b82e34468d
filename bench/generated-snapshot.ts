/** A snapshot document of `count` collections, each with `extraFields` more string fields (`note_01` …) beside its own ten. */
export function generatedSnapshot(count: number, extraFields = 0): Record<string, unknown> {
  const collections = [];
  const fields = [];
  const relations = [];
  const permissions = [];
  for (let index = 1; index <= count; index++) {
    const name = `bench_${String(index).padStart(3, '0')}`;
    collections.push({ collection: name, meta: { icon: 'box', note: `Generated collection ${index}` }, schema: { name } });
    fields.push(
      { collection: name, field: 'id', type: 'integer', meta: { hidden: true }, schema: { is_primary_key: true } },
      { collection: name, field: 'title', type: 'string', meta: { interface: 'input', required: true }, schema: { is_nullable: false } },
      { collection: name, field: 'slug', type: 'string', meta: {}, schema: { is_unique: true, max_length: 120 } },
      { collection: name, field: 'body', type: 'text', meta: {}, schema: {} },
      { collection: name, field: 'price', type: 'decimal', meta: {}, schema: { numeric_precision: 12, numeric_scale: 2 } },
      { collection: name, field: 'published', type: 'boolean', meta: {}, schema: { default_value: false } },
      { collection: name, field: 'published_on', type: 'timestamp', meta: {}, schema: {} },
      { collection: name, field: 'data', type: 'json', meta: {}, schema: {} },
    );
    for (let extra = 1; extra <= extraFields; extra++) {
      fields.push({ collection: name, field: `note_${String(extra).padStart(2, '0')}`, type: 'string', meta: { interface: 'input' }, schema: {} });
    }
    if (index > 1) {
      const previous = `bench_${String(index - 1).padStart(3, '0')}`;
      fields.push({ collection: name, field: 'parent', type: 'integer', meta: { special: ['m2o'] }, schema: {} });
      fields.push({ collection: previous, field: 'children', type: 'alias', meta: { special: ['o2m'] } });
      relations.push({ collection: name, field: 'parent', related_collection: previous, meta: { one_field: 'children' }, schema: { on_delete: 'SET NULL' } });
    }
    permissions.push({ role: 'Editor', collection: name, action: 'read', fields: ['*'] }, { role: null, collection: name, action: 'read', fields: ['id', 'title'], permissions: { published: { _eq: true } } });
  }
  return {
    version: 2,
    vendor: 'postgres',
    collections,
    fields,
    relations,
    roles: [
      { name: 'Administrator', icon: 'verified', description: 'Full access to every collection and setting.', admin_access: true, app_access: true },
      { name: 'Editor', app_access: true },
    ],
    permissions,
  };
}

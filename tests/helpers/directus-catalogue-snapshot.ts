import { aliasField, collection, foreignKey, idField, relationMeta, textField, typedField } from './directus-snapshot.ts';

/**
 * A schema snapshot as Directus 11 writes it (`GET /schema/snapshot`) whose fields use the catalogue's second
 * part (issue 33) with Directus's interface ids and option names: dropdown, checkboxes, tags, slider, icon,
 * autocomplete from a URL, key-value, image, files (m2m to directus_files), tree view (a recursive o2m),
 * divider, links and header. Names are Portuguese so a pt-BR screen's English is never seed data.
 */
const PAGE = 'paginas';
const JUNCTION = 'paginas_arquivos';
const json = (field: string, extra: Record<string, unknown>) => typedField(PAGE, field, 'json', 'json', { special: ['cast-json'], ...extra });

/** Each field of `paginas` with the interface it names (and the options the interface reads). */
export const CATALOGUE_FIELDS = {
  cabecalho: aliasField(PAGE, 'cabecalho', {
    interface: 'header',
    special: ['alias', 'no-data'],
    options: { title: 'Página {{titulo}}', subtitle: 'Cabeçalho do site', icon: 'article', color: '#6644FF', help: 'Ajuda <b>sem HTML</b>', helpDisplayMode: 'inline', links: [{ label: 'Abrir no site', actionType: 'url', url: 'https://example.test/{{titulo}}', type: 'primary' }] },
  }),
  titulo: textField(PAGE, 'titulo'),
  divisor: aliasField(PAGE, 'divisor', { interface: 'presentation-divider', special: ['alias', 'no-data'], options: { title: 'Conteúdo', inlineTitle: true } }),
  estado: textField(PAGE, 'estado', { interface: 'select-dropdown', options: { choices: [{ text: 'Rascunho', value: 'rascunho' }, { text: 'Publicado', value: 'publicado' }], placeholder: 'Escolha' } }),
  canais: json('canais', { interface: 'select-multiple-checkbox', options: { choices: [{ text: 'Site', value: 'site' }, { text: 'Boletim', value: 'boletim' }] } }),
  etiquetas: json('etiquetas', { interface: 'tags', options: { presets: ['novo', 'destaque'], alphabetize: true } }),
  prioridade: typedField(PAGE, 'prioridade', 'integer', 'integer', { interface: 'slider', options: { minValue: 0, maxValue: 10, stepInterval: 1 } }),
  icone: textField(PAGE, 'icone', { interface: 'select-icon' }),
  cidade: textField(PAGE, 'cidade', { interface: 'input-autocomplete-api', options: { url: 'https://example.test/cidades?q={{value}}', resultsPath: 'data', textPath: 'nome', valuePath: 'nome', trigger: 'debounce', rate: 300 } }),
  atributos: json('atributos', { interface: 'key-value', options: { keyPlaceholder: 'chave', valuePlaceholder: 'valor' } }),
  capa: typedField(PAGE, 'capa', 'uuid', 'uuid', { interface: 'file-image', special: ['file'], options: { crop: false } }, { foreign_key_table: 'directus_files', foreign_key_column: 'id' }),
  galeria: aliasField(PAGE, 'galeria', { interface: 'files', special: ['files'], options: { limit: 3 } }),
  pai: typedField(PAGE, 'pai', 'integer', 'integer', { interface: 'select-dropdown-m2o', special: ['m2o'], hidden: true }, { foreign_key_table: PAGE, foreign_key_column: 'id' }),
  filhas: aliasField(PAGE, 'filhas', { interface: 'list-o2m-tree-view', special: ['o2m'], options: { enableSelect: true } }),
  links: aliasField(PAGE, 'links', { interface: 'presentation-links', special: ['alias', 'no-data'], options: { links: [{ label: 'Pré-visualizar', url: 'https://example.test/previa/{{id}}' }] } }),
} as const;

/** The snapshot: `paginas`, its files junction, and the relations (image, files, parent). */
export const CATALOGUE_SNAPSHOT = {
  version: 1,
  directus: '11.5.1',
  vendor: 'postgres',
  collections: [collection(PAGE, { display_template: '{{titulo}}', icon: 'article' }), collection(JUNCTION, { hidden: true })],
  fields: [
    idField(PAGE),
    ...Object.values(CATALOGUE_FIELDS),
    idField(JUNCTION),
    typedField(JUNCTION, 'paginas_id', 'integer', 'integer', { hidden: true }, { foreign_key_table: PAGE, foreign_key_column: 'id' }),
    typedField(JUNCTION, 'directus_files_id', 'uuid', 'uuid', { hidden: true }, { foreign_key_table: 'directus_files', foreign_key_column: 'id' }),
  ],
  relations: [
    { collection: PAGE, field: 'capa', related_collection: 'directus_files', meta: relationMeta({ many_collection: PAGE, many_field: 'capa', one_collection: 'directus_files' }), schema: foreignKey(PAGE, 'capa', 'directus_files', 'id') },
    { collection: PAGE, field: 'pai', related_collection: PAGE, meta: relationMeta({ many_collection: PAGE, many_field: 'pai', one_collection: PAGE, one_field: 'filhas' }), schema: foreignKey(PAGE, 'pai', PAGE, 'id') },
    {
      collection: JUNCTION,
      field: 'directus_files_id',
      related_collection: 'directus_files',
      meta: relationMeta({ many_collection: JUNCTION, many_field: 'directus_files_id', one_collection: 'directus_files', junction_field: 'paginas_id' }),
      schema: foreignKey(JUNCTION, 'directus_files_id', 'directus_files', 'id'),
    },
    {
      collection: JUNCTION,
      field: 'paginas_id',
      related_collection: PAGE,
      meta: relationMeta({ many_collection: JUNCTION, many_field: 'paginas_id', one_collection: PAGE, one_field: 'galeria', junction_field: 'directus_files_id' }),
      schema: foreignKey(JUNCTION, 'paginas_id', PAGE, 'id'),
    },
  ],
};

import type { Locale, Messages } from '../../app/module.ts';
import { BLOCK_TOOLS } from '../../content/interfaces/block-editor/block-tool-names.ts';
import { CODE_LANGUAGES, CODE_LANGUAGE_IDS } from '../../content/interfaces/code/code-languages.ts';
import { editorMessages } from '../../content/interfaces/editor-messages.ts';
import { RICH_TEXT_TOOLBAR } from '../../content/interfaces/rich-text/toolbar-names.ts';

const BLOCK_TOOL_NAMES: Record<Locale, Record<(typeof BLOCK_TOOLS)[number], string>> = {
  'en-US': { header: 'Heading', paragraph: 'Paragraph', nestedlist: 'Nested list', list: 'List', checklist: 'Checklist', quote: 'Quote', code: 'Code', image: 'Image from the library', table: 'Table', delimiter: 'Delimiter', raw: 'Raw HTML', underline: 'Underline', inlinecode: 'Inline code' },
  'pt-BR': { header: 'Título', paragraph: 'Parágrafo', nestedlist: 'Lista aninhada', list: 'Lista', checklist: 'Lista de tarefas', quote: 'Citação', code: 'Código', image: 'Imagem da biblioteca', table: 'Tabela', delimiter: 'Separador', raw: 'HTML puro', underline: 'Sublinhado', inlinecode: 'Código em linha' },
};

/** The options forms of the heavy editors: the code languages, the rich text toolbar (its buttons' own names) and the block tools. */
function optionMessages(locale: Locale, texts: Messages): Messages {
  return {
    ...texts,
    ...Object.fromEntries(CODE_LANGUAGE_IDS.map((id) => [`dataModel.options.language.${id}`, id === 'plaintext' ? (texts['dataModel.options.language.plaintext'] as string) : CODE_LANGUAGES[id].name])),
    ...Object.fromEntries(RICH_TEXT_TOOLBAR.map((name) => [`dataModel.options.toolbar.${name}`, editorMessages[locale][`content.richText.${name}`] as string])),
    ...Object.fromEntries(BLOCK_TOOLS.map((name) => [`dataModel.options.tools.${name}`, BLOCK_TOOL_NAMES[locale][name]])),
  };
}

/** The field drawer's texts for the code, rich text and block editor options. */
export const editorOptionMessages: Record<Locale, Messages> = {
  'en-US': optionMessages('en-US', {
    'dataModel.interfaces.input-block-editor': 'Block editor',
    'dataModel.options.language.plaintext': 'Plain text',
    'dataModel.options.lineWrapping': 'Wrap long lines',
    'dataModel.options.toolbar': 'Toolbar',
    'dataModel.options.folder': 'Folder for uploads',
    'dataModel.options.folder.root': 'The library’s root',
    'dataModel.options.imageToken': 'Access token added to image addresses',
    'dataModel.options.softLength': 'Suggested maximum length',
    'dataModel.options.tools': 'Tools',
    'dataModel.options.bordered': 'Border',
  }),
  'pt-BR': optionMessages('pt-BR', {
    'dataModel.interfaces.input-block-editor': 'Editor de blocos',
    'dataModel.options.language.plaintext': 'Texto simples',
    'dataModel.options.lineWrapping': 'Quebrar linhas longas',
    'dataModel.options.toolbar': 'Barra de ferramentas',
    'dataModel.options.folder': 'Pasta dos envios',
    'dataModel.options.folder.root': 'A raiz da biblioteca',
    'dataModel.options.imageToken': 'Token de acesso somado aos endereços das imagens',
    'dataModel.options.softLength': 'Tamanho máximo sugerido',
    'dataModel.options.tools': 'Ferramentas',
    'dataModel.options.bordered': 'Borda',
  }),
};

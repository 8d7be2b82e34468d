import type { Locale, Messages } from '../../app/module.ts';

/**
 * Texts of the catalogue's second part (issue 33) in the item form: the autocomplete, header, key-value
 * and tree-view interfaces and the image editor button (their names and options: the data model's
 * catalogue-option-messages.ts).
 */
export const catalogueMessages: Record<Locale, Messages> = {
  'en-US': {
    'content.autocomplete.failed': 'No suggestions could be read.',
    'content.header.help': 'Help',
    'content.header.saveFirst': 'Save the item first',
    'content.keyValue.key': 'Key',
    'content.keyValue.value': 'Value',
    'content.keyValue.add': 'Add a pair',
    'content.keyValue.remove': 'Remove the pair',
    'content.keyValue.duplicate': 'A key is repeated: the last row with it is kept.',
    'content.tree.notRecursive': 'The tree view needs a one-to-many to this same collection.',
    'content.files.editImage': 'Edit image',
  },
  'pt-BR': {
    'content.autocomplete.failed': 'Não foi possível ler sugestões.',
    'content.header.help': 'Ajuda',
    'content.header.saveFirst': 'Salve o item primeiro',
    'content.keyValue.key': 'Chave',
    'content.keyValue.value': 'Valor',
    'content.keyValue.add': 'Adicionar um par',
    'content.keyValue.remove': 'Remover o par',
    'content.keyValue.duplicate': 'Uma chave se repete: fica a última linha com ela.',
    'content.tree.notRecursive': 'A árvore precisa de um um-para-muitos para esta mesma coleção.',
    'content.files.editImage': 'Editar imagem',
  },
};

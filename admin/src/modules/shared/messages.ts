import type { Locale, Messages } from '../../app/module.ts';

/** Texts shared by every module's screens (merged into each module's messages). */
export const sharedMessages: Record<Locale, Messages> = {
  'en-US': {
    'shared.json.invalid': 'This is not valid JSON.',
    'shared.json.notObject': 'Write a JSON object, like {"status": "draft"}.',
    'shared.filter.notObject': 'Each condition must be an object, like {"_eq": "value"}.',
    'shared.filter.logicalList': '_and and _or take a non-empty list of conditions.',
    'shared.filter.unknownOperator': 'Unknown operator.',
    'shared.filter.operatorWithoutField': 'An operator must sit under a field name.',
    'shared.filter.badField': 'Not a field name.',
    'shared.filter.empty': 'This condition is empty.',
    'shared.actions.save': 'Save',
    'shared.actions.cancel': 'Cancel',
    'shared.actions.create': 'Create',
    'shared.actions.edit': 'Edit',
    'shared.actions.delete': 'Delete',
    'shared.actions.back': 'Back',
    'shared.actions.add': 'Add',
    'shared.actions.remove': 'Remove',
    'shared.confirm.delete': 'Delete this? It cannot be undone.',
    'shared.saved': 'Saved',
    'shared.yes': 'Yes',
    'shared.no': 'No',
    'shared.none': 'None',
    'shared.adminOnly': 'Only administrators can open this screen.',
    'shared.language': 'Language',
    'shared.translation': 'Translation',
    'shared.loading': 'Loading…',
  },
  'pt-BR': {
    'shared.json.invalid': 'Isto não é um JSON válido.',
    'shared.json.notObject': 'Escreva um objeto JSON, como {"status": "draft"}.',
    'shared.filter.notObject': 'Cada condição deve ser um objeto, como {"_eq": "valor"}.',
    'shared.filter.logicalList': '_and e _or recebem uma lista não vazia de condições.',
    'shared.filter.unknownOperator': 'Operador desconhecido.',
    'shared.filter.operatorWithoutField': 'Um operador deve ficar dentro do nome de um campo.',
    'shared.filter.badField': 'Não é um nome de campo.',
    'shared.filter.empty': 'Esta condição está vazia.',
    'shared.actions.save': 'Salvar',
    'shared.actions.cancel': 'Cancelar',
    'shared.actions.create': 'Criar',
    'shared.actions.edit': 'Editar',
    'shared.actions.delete': 'Excluir',
    'shared.actions.back': 'Voltar',
    'shared.actions.add': 'Adicionar',
    'shared.actions.remove': 'Remover',
    'shared.confirm.delete': 'Excluir? Não é possível desfazer.',
    'shared.saved': 'Salvo',
    'shared.yes': 'Sim',
    'shared.no': 'Não',
    'shared.none': 'Nenhum',
    'shared.adminOnly': 'Somente administradores podem abrir esta tela.',
    'shared.language': 'Idioma',
    'shared.translation': 'Tradução',
    'shared.loading': 'Carregando…',
  },
};

/** A module's messages with the shared ones added. */
export function withShared(messages: Record<Locale, Messages>): Record<Locale, Messages> {
  return {
    'en-US': { ...sharedMessages['en-US'], ...messages['en-US'] },
    'pt-BR': { ...sharedMessages['pt-BR'], ...messages['pt-BR'] },
  };
}

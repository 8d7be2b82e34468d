import type { Locale, Messages } from '../../app/module.ts';

const enUS: Messages = {
  'activity.menu': 'Activity',
  'activity.title': 'Activity log',
  'activity.subtitle': 'Every change, with who made it and when.',
  'activity.fields.timestamp': 'When',
  'activity.fields.user': 'User',
  'activity.fields.action': 'Action',
  'activity.fields.collection': 'Collection',
  'activity.fields.item': 'Item',
  'activity.fields.comment': 'Comment',
  'activity.actions.create': 'Created',
  'activity.actions.update': 'Updated',
  'activity.actions.delete': 'Deleted',
  'activity.actions.login': 'Signed in',
  'activity.actions.comment': 'Commented',
  'activity.actions.version_save': 'Saved to a version',
  'activity.actions.run': 'Ran a flow',
};

const ptBR: Messages = {
  'activity.menu': 'Atividade',
  'activity.title': 'Registro de atividade',
  'activity.subtitle': 'Cada alteração, com quem a fez e quando.',
  'activity.fields.timestamp': 'Quando',
  'activity.fields.user': 'Usuário',
  'activity.fields.action': 'Ação',
  'activity.fields.collection': 'Coleção',
  'activity.fields.item': 'Item',
  'activity.fields.comment': 'Comentário',
  'activity.actions.create': 'Criou',
  'activity.actions.update': 'Atualizou',
  'activity.actions.delete': 'Excluiu',
  'activity.actions.login': 'Entrou',
  'activity.actions.comment': 'Comentou',
  'activity.actions.version_save': 'Salvou em uma versão',
  'activity.actions.run': 'Executou um fluxo',
};

/** The activity log's texts. */
export const activityMessages: Record<Locale, Messages> = { 'en-US': enUS, 'pt-BR': ptBR };

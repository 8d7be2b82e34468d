import type { Locale, Messages } from '../../app/module.ts';

/** Texts of the notification bell and inbox. */
export const notificationsMessages: Record<Locale, Messages> = {
  'en-US': {
    'notifications.title': 'Notifications',
    'notifications.open': 'Notifications',
    'notifications.empty': 'Nothing new',
    'notifications.archive': 'Archive',
    'notifications.unarchive': 'Move back to the inbox',
    'notifications.archiveAll': 'Archive all',
    'notifications.seeAll': 'See all',
    'notifications.inbox': 'Inbox',
    'notifications.archived': 'Archived',
  },
  'pt-BR': {
    'notifications.title': 'Notificações',
    'notifications.open': 'Notificações',
    'notifications.empty': 'Nada de novo',
    'notifications.archive': 'Arquivar',
    'notifications.unarchive': 'Voltar para a caixa de entrada',
    'notifications.archiveAll': 'Arquivar todas',
    'notifications.seeAll': 'Ver todas',
    'notifications.inbox': 'Caixa de entrada',
    'notifications.archived': 'Arquivadas',
  },
};

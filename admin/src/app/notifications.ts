import { useNotificationProvider } from '@refinedev/antd';
import type { NotificationProvider } from '@refinedev/core';
import { App } from 'antd';
import { useMemo } from 'react';

/**
 * Refine's notifications, quieter: a success is a short toast ("Saved"), not a card; an error is a
 * card titled with what failed and the server's message below. (@refinedev/antd shows Refine's
 * `description` as the title and its `message` as the body, which reads "Done / Created".)
 */
export function useQuietNotifications(): NotificationProvider {
  const cards = useNotificationProvider();
  const { message, notification } = App.useApp();
  return useMemo<NotificationProvider>(
    () => ({
      open: (params) => {
        if (params.type === 'success') return void message.success({ key: params.key, content: params.message });
        if (params.type === 'error') return void notification.error({ key: params.key, message: params.message, description: params.description });
        cards.open(params);
      },
      close: (key) => {
        message.destroy(key);
        cards.close(key);
      },
    }),
    [cards, message, notification],
  );
}

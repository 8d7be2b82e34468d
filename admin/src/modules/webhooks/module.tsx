import { ApiOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { webhooksMessages } from './messages.ts';

const WebhooksPage = lazy(() => import('./webhooks-page.tsx'));

/** Webhooks: list, create/edit, and each one's delivery log (administrators). */
export const webhooksModule: AdminModule = {
  name: 'webhooks',
  resources: [{ name: 'webhooks', list: '/webhooks', meta: { label: 'webhooks.menu', icon: <ApiOutlined /> } }],
  routes: <Route path="/webhooks" element={<WebhooksPage />} />,
  messages: withShared(webhooksMessages),
};

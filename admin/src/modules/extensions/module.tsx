import { AppstoreAddOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { extensionsMessages } from './messages.ts';

const ExtensionsPage = lazy(() => import('./extensions-page.tsx'));

/** Settings → Extensions: every extension, its load status and an enabled switch (administrators). */
export const extensionsModule: AdminModule = {
  name: 'extensions',
  resources: [{ name: 'extensions', list: '/settings/extensions', meta: { label: 'extensions.menu', icon: <AppstoreAddOutlined />, adminOnly: true } }],
  routes: <Route path="/settings/extensions" element={<ExtensionsPage />} />,
  messages: withShared(extensionsMessages),
};

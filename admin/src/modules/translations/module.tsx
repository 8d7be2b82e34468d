import { TranslationOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { translationsMessages } from './messages.ts';

const TranslationsPage = lazy(() => import('./translations-page.tsx'));

/** Custom translation strings, shown to those who may change them. */
export const translationsModule: AdminModule = {
  name: 'translations',
  resources: [{ name: 'translations', list: '/translations', meta: { label: 'translations.menu', icon: <TranslationOutlined />, menuAction: 'create' } }],
  routes: <Route path="/translations" element={<TranslationsPage />} />,
  messages: withShared(translationsMessages),
};

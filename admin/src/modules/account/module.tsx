import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { accountMessages } from './messages.ts';

const AccountPage = lazy(() => import('./account-page.tsx'));

/** The signed-in user's own account (two-factor authentication); reached from the user menu, not the module bar. */
export const accountModule: AdminModule = {
  name: 'account',
  resources: [],
  routes: <Route path="/account" element={<AccountPage />} />,
  messages: withShared(accountMessages),
};

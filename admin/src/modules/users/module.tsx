import { UserOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { usersMessages } from './messages.ts';

const UsersPage = lazy(() => import('./users-page.tsx'));
const UserPage = lazy(() => import('./user-page.tsx'));

/** Users: list, invite, edit. */
export const usersModule: AdminModule = {
  name: 'users',
  resources: [{ name: 'users', list: '/users', edit: '/users/:id', meta: { label: 'users.menu', icon: <UserOutlined /> } }],
  routes: (
    <>
      <Route path="/users" element={<UsersPage />} />
      <Route path="/users/:id" element={<UserPage />} />
    </>
  ),
  messages: withShared(usersMessages),
};

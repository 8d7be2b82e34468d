import { SafetyOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { rolesMessages } from './messages.ts';

const RolesPage = lazy(() => import('./roles-page.tsx'));
const RolePage = lazy(() => import('./role-page.tsx'));

/** Roles and their permission matrix. */
export const rolesModule: AdminModule = {
  name: 'roles',
  resources: [{ name: 'roles', list: '/roles', edit: '/roles/:id', meta: { label: 'roles.menu', icon: <SafetyOutlined />, menuAction: 'update' } }],
  routes: (
    <>
      <Route path="/roles" element={<RolesPage />} />
      <Route path="/roles/:id" element={<RolePage />} />
    </>
  ),
  messages: withShared(rolesMessages),
};

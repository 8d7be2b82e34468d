import { ThunderboltOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { flowsMessages } from './messages.ts';

const FlowsPage = lazy(() => import('./flows-page.tsx'));

/** Flows: the list with status switches and creating a flow (administrators). */
export const flowsModule: AdminModule = {
  name: 'flows',
  resources: [{ name: 'flows', list: '/flows', meta: { label: 'flows.menu', icon: <ThunderboltOutlined /> } }],
  routes: <Route path="/flows" element={<FlowsPage />} />,
  messages: withShared(flowsMessages),
};

import { ThunderboltOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { flowsMessages } from './messages.ts';

const FlowsPage = lazy(() => import('./flows-page.tsx'));
const FlowEditorPage = lazy(() => import('./flow-editor-page.tsx'));

/** Flows: the list with status switches, creating a flow, and the flow editor (trigger, operations, run log) (administrators). */
export const flowsModule: AdminModule = {
  name: 'flows',
  resources: [{ name: 'flows', list: '/flows', meta: { label: 'flows.menu', icon: <ThunderboltOutlined /> } }],
  routes: (
    <>
      <Route path="/flows" element={<FlowsPage />} />
      <Route path="/flows/:id" element={<FlowEditorPage />} />
    </>
  ),
  messages: withShared(flowsMessages),
};

import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { modules as moduleRegistry } from '../extensions/kinds.ts';
import { modules } from './index.ts';

// Each built-in module's menu entry enters the registry exactly as an extension's module does
// (admin/src/extensions/kinds.ts); its pages stay the routes of its AdminModule, and /modules/<id> leads there.
for (const module of modules) {
  for (const resource of module.resources) {
    const path = resource.list;
    if (typeof path !== 'string' || resource.meta?.hide) continue;
    const OpenModule = () => <Navigate to={path} replace />;
    moduleRegistry.register({ id: resource.name, name: String(resource.meta?.label ?? resource.name), icon: resource.meta?.icon as ReactNode, path, builtIn: true, component: OpenModule });
  }
}

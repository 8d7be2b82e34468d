import type { AppContext } from '../../app-context.ts';
export type ExtensionServices = Record<string, unknown>;
export function createExtensionServices(_app: AppContext): ExtensionServices {
  return {};
}

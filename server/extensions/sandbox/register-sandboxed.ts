import { readFile } from 'node:fs/promises';
import type { AppContext } from '../../app-context.ts';
import type { ActionPayload, FilterMeta } from '../../events/event-names.ts';
import { registerOperation } from '../../flows/operations/index.ts';
import type { Logger } from '../../logger.ts';
import { toDirectusAccountability } from '../context/accountability.ts';
import { directusCollection, eventTarget, isSystemCollection } from '../directus-events.ts';
import type { ExpressApp } from '../express-bridge.ts';
import { extensionRouter } from '../extension-router.ts';
import type { Registration } from '../load-extension.ts';
import type { ExtensionManifest } from '../../extension-packages/manifest.ts';
import { sandboxCapabilities, type InvocationContext } from './sandbox-capabilities.ts';
import { startSandbox, type SandboxedExtension } from './sandbox-host.ts';
import type { SandboxFailure } from './sandbox-protocol.ts';
import { parseScopes, SDK_FUNCTIONS } from './sandbox-scopes.ts';

/** Headers a sandboxed endpoint is not handed: the caller's credentials stay on the server. */
const WITHHELD_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * Loads a sandboxed hook, endpoint or operation (Directus's `sandbox.enabled`) in its own QuickJS thread
 * and wires what it registered: filters and actions onto the event spine, routes under `/<id>`, its
 * operation type. `onStopped` is told when a limit stops it later; everything it registered is taken away
 * then (a filter or route of a stopped extension passes).
 */
export async function registerSandboxed(
  app: AppContext,
  manifest: ExtensionManifest,
  fallbackId: string,
  endpoints: ExpressApp,
  logger: Logger,
  onStopped: (reason: string) => void,
): Promise<Registration> {
  if (manifest.type !== 'hook' && manifest.type !== 'endpoint' && manifest.type !== 'operation') throw new Error(`A sandboxed ${manifest.type} is not supported: only hooks, endpoints and operations run in the sandbox.`);
  if (!manifest.api) throw new Error('A sandboxed extension needs a server entry.');
  const scopes = parseScopes(manifest.sandbox?.requestedScopes ?? {});
  const granted = Object.entries(SDK_FUNCTIONS)
    .filter(([, scope]) => scopes[scope] !== undefined)
    .map(([name]) => name);
  const { sandbox: limits } = app.config.extensions;
  const offs: Array<() => void> = [];
  let active = true;
  const dispose = () => {
    active = false;
    offs.splice(0).forEach((off) => off());
  };
  const stopped = (failure: SandboxFailure) => {
    dispose();
    const reason = `stopped: ${failure.message}`;
    logger.error({ limit: failure.limit }, `sandboxed extension "${manifest.name}" ${reason}`);
    onStopped(reason);
  };
  const sandbox: SandboxedExtension<InvocationContext> = await startSandbox(
    { code: await readFile(manifest.api, 'utf8'), filename: manifest.api, type: manifest.type, granted, memoryLimitBytes: limits.memoryBytes, timeLimitMs: limits.timeoutMs },
    sandboxCapabilities(app, scopes, logger),
    stopped,
  );
  offs.push(() => void sandbox.stop());

  let endpoint: string | null = null;
  for (const registration of sandbox.registrations) {
    switch (registration.kind) {
      case 'filter': {
        const target = eventTarget(registration.event);
        offs.push(
          app.events.onFilter(target.name as never, async (payload, meta: FilterMeta) => {
            if (target.userCollectionsOnly && isSystemCollection(meta.collection)) return undefined;
            const isDelete = target.action === 'delete';
            const directusMeta = { event: registration.event, collection: directusCollection(meta.collection), keys: meta.keys };
            const result = await sandbox.invoke(registration.handler, [isDelete ? meta.keys : payload, directusMeta], { accountability: toDirectusAccountability(meta.accountability) });
            return isDelete || result === undefined || result === null ? undefined : (result as Record<string, unknown>);
          }, { deferTransaction: true }),
        );
        break;
      }
      case 'action': {
        const target = eventTarget(registration.event);
        offs.push(
          app.events.onAction(target.name as never, async (meta: ActionPayload) => {
            if (target.userCollectionsOnly && isSystemCollection(meta.collection)) return;
            const collection = directusCollection(meta.collection);
            const directusMeta = target.action === 'create' ? { event: registration.event, payload: meta.payload, key: meta.keys[0], collection } : { event: registration.event, payload: target.action === 'delete' ? meta.keys : meta.payload, keys: meta.keys, collection };
            await sandbox.invoke(registration.handler, [directusMeta], { accountability: toDirectusAccountability(meta.accountability) });
          }),
        );
        break;
      }
      case 'route': {
        if (endpoint === null) {
          endpoint = fallbackId;
          const router = extensionRouter();
          endpoints.use(`/${endpoint}`, router);
          for (const route of sandbox.registrations) {
            if (route.kind !== 'route') continue;
            const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
            router[method](route.path, async (req, res, next) => {
              if (!active) return next();
              const { accountability } = req as unknown as { accountability?: InvocationContext['accountability'] };
              const request = { url: req.url, method: req.method, headers: Object.fromEntries(Object.entries(req.headers).filter(([name]) => !WITHHELD_HEADERS.has(name))), body: req.body ?? null, accountability: accountability ?? null };
              const response = (await sandbox.invoke(route.handler, [request], { accountability: accountability ?? null })) as { status?: unknown; body?: unknown } | undefined;
              const status = typeof response?.status === 'number' && response.status >= 100 && response.status < 600 ? response.status : 200;
              res.status(status).send(typeof response?.body === 'string' ? response.body : (response?.body ?? ''));
            });
          }
        }
        break;
      }
      case 'operation': {
        offs.push(
          registerOperation(registration.id, (options, operation) =>
            sandbox.invoke(registration.handler, [options, { data: operation.data, accountability: toDirectusAccountability(operation.accountability) }], { accountability: toDirectusAccountability(operation.accountability) }),
          ),
        );
        break;
      }
    }
  }
  return { hook: null, endpoint, dispose };
}

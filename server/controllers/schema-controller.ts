import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { InvalidPayloadError } from '../errors.ts';
import { requireSchemaWrite } from '../services/schema/access.ts';
import { validatePayload } from '../services/validate-payload.ts';
import { parseSnapshotDocument } from '../snapshot/load-snapshot.ts';
import { ONLY_CHOICES } from '../snapshot/plan.ts';
import { installedExtensions } from '../snapshot/extension-flags.ts';
import { SnapshotService } from '../snapshot/snapshot-service.ts';

const onlySchema = yup.array(yup.string().oneOf(Object.keys(ONLY_CHOICES)).required()).default([]);

const applySchema = yup
  .object({
    hash: yup.string().required(),
    diff: yup.object({ snapshot: yup.object().required() }).default(undefined),
    snapshot: yup.object().default(undefined),
    only: onlySchema,
    allow_data_loss: yup.boolean().default(false),
  })
  .test('snapshot', 'diff.snapshot (the body POST /schema/diff returned as `diff`) or snapshot is required', (value) => Boolean(value.diff?.snapshot ?? value.snapshot));

/** The `only` query parameter: a comma-separated list of sections. */
function parseOnly(value: unknown): string[] {
  const list = typeof value === 'string' && value !== '' ? value.split(',') : [];
  return validatePayload(yup.object({ only: onlySchema }), { only: list }).only;
}

/**
 * `/schema`: the database as a snapshot, the diff from it to a posted snapshot, and applying that diff.
 * Administrators only. `env` resolves `${env:NAME}` secret references on apply.
 */
export function schemaController(app: AppContext, env: NodeJS.ProcessEnv = process.env): Router {
  const router = new Router({ prefix: '/schema' });
  const service = (accountability: Accountability) => {
    requireSchemaWrite(accountability);
    const installed = () => installedExtensions(app.config.extensions.path, app.config.extensions.projectDir);
    return new SnapshotService({ db: app.database.kysely(), schemaCache: app.schema, servicesContext: app.servicesContext, installedExtensions: installed }, accountability, env);
  };

  router.get('/snapshot', async (ctx) => {
    ctx.body = { data: await service(ctx.state.accountability).read() };
  });

  router.post('/diff', async (ctx) => {
    const snapshots = service(ctx.state.accountability);
    const desired = parseSnapshotDocument(ctx.request.body, 'body');
    const { plan, hash } = await snapshots.plan(desired, { only: parseOnly(ctx.query.only) });
    if (plan.steps.length === 0) {
      ctx.status = 204;
      return;
    }
    ctx.body = { data: { hash, diff: { steps: plan.steps, unresolved: plan.unresolved, warnings: plan.warnings ?? [], snapshot: ctx.request.body } } };
  });

  router.post('/apply', async (ctx) => {
    const snapshots = service(ctx.state.accountability);
    const input = validatePayload(applySchema, ctx.request.body ?? {});
    const raw = input.diff?.snapshot ?? input.snapshot;
    if (!raw) throw new InvalidPayloadError('diff.snapshot is required.', { field: 'diff' });
    const desired = parseSnapshotDocument(raw, 'diff.snapshot');
    const result = await snapshots.apply(desired, { expectedHash: input.hash, only: input.only, allowDataLoss: input.allow_data_loss });
    // Extensions switched on or off by the snapshot are (un)registered before the answer, as with PATCH /extensions.
    if (result.plan.steps.some((step) => step.kind === 'extensions')) await app.extensions.resyncEnabled();
    ctx.status = 204;
  });

  return router;
}

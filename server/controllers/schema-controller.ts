import Router from '@koa/router';
import { dump } from 'js-yaml';
import type { Context } from 'koa';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import type { Accountability } from '../auth/accountability.ts';
import { InvalidPayloadError, InvalidQueryError } from '../errors.ts';
import { requireSchemaWrite } from '../services/schema/access.ts';
import { validatePayload } from '../services/validate-payload.ts';
import { directusSchemaDiff } from '../snapshot/directus-diff.ts';
import { parseSnapshotDocument } from '../snapshot/load-snapshot.ts';
import { ONLY_CHOICES } from '../snapshot/plan.ts';
import { installedExtensions } from '../snapshot/extension-flags.ts';
import { readSchemaBody } from '../snapshot/schema-upload.ts';
import { formatValue } from '../snapshot/serialize.ts';
import { sortKeysDeep } from '../snapshot/sort.ts';
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

  const body = (ctx: Context) => readSchemaBody(ctx.req, ctx.request.body, app.config.server.maxPayloadSize);

  router.get('/snapshot', async (ctx) => {
    const snapshot = await service(ctx.state.accountability).read();
    if (ctx.query.export === undefined) {
      ctx.body = { data: snapshot };
      return;
    }
    // Directus's `?export=json|yaml`: the document itself as a download (what `tessera snapshot` writes, in one file).
    const format = ctx.query.export;
    if (format !== 'json' && format !== 'yaml') throw new InvalidQueryError('export must be json or yaml for a snapshot.', { field: 'export' });
    ctx.attachment(`snapshot.${format}`);
    ctx.type = format === 'json' ? 'application/json' : 'text/yaml';
    // js-yaml's dump quotes strings its default loader would read as something else (ISO dates become Date
    // objects there), so a client loading the file with js-yaml, as Directus's do, gets the same values back.
    ctx.body = format === 'json' ? formatValue(snapshot, 'json') : dump(sortKeysDeep(snapshot), { noRefs: true, lineWidth: -1 });
  });

  router.post('/diff', async (ctx) => {
    const snapshots = service(ctx.state.accountability);
    const raw = await body(ctx);
    const desired = parseSnapshotDocument(raw, 'body');
    const only = parseOnly(ctx.query.only);
    const { plan, hash, shown } = await snapshots.plan(desired, { only });
    if (plan.steps.length === 0) {
      ctx.status = 204;
      return;
    }
    // Directus's lists (collections, fields, relations) beside Tessera's plan; apply reads only `snapshot`.
    const schemaListed = only.length === 0 || only.some((choice) => ONLY_CHOICES[choice]?.includes('collection'));
    const directus = schemaListed ? directusSchemaDiff(shown.current, shown.desired) : { collections: [], fields: [], relations: [] };
    ctx.body = { data: { hash, diff: { ...directus, steps: plan.steps, unresolved: plan.unresolved, warnings: plan.warnings ?? [], snapshot: raw } } };
  });

  router.post('/apply', async (ctx) => {
    const snapshots = service(ctx.state.accountability);
    const input = validatePayload(applySchema, (await body(ctx)) ?? {});
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

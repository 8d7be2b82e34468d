import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { ForbiddenError, InvalidPayloadError, ServiceUnavailableError } from '../errors.ts';
import { parseAllowList } from '../outbound/address-policy.ts';
import { OutboundRefusedError, outboundRequest } from '../outbound/outbound-request.ts';
import { resolveAccess } from '../permissions/access.ts';
import type { FieldOverview } from '../schema/overview.ts';
import { validatePayload } from '../services/validate-payload.ts';
import { readSuggestions, suggestionUrl } from './autocomplete-suggestions.ts';

/** The interface whose suggestions this route fetches (Directus's id). */
export const AUTOCOMPLETE_INTERFACE = 'input-autocomplete-api';

const querySchema = yup.object({ value: yup.string().max(500).default('') });

const TIMEOUT_MS = 5_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** The field's string option, or undefined. */
function option(field: FieldOverview, name: string): string | undefined {
  const value = field.meta?.options?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * `GET /utils/autocomplete/:collection/:field?value=`: the suggestions of an `input-autocomplete-api`
 * field for the typed value. The server, not the browser, calls the field's `url` option (so a role
 * cannot point the admin at an address of its choosing: only the data model's URL is called), through
 * the outbound guard: loopback, private, link-local and metadata addresses are refused unless
 * OUTBOUND_ALLOWED_HOSTS names them. Signed-in callers who may create or update the field only.
 */
export function autocompleteController(app: AppContext): Router {
  const router = new Router({ prefix: '/utils/autocomplete' });

  router.get('/:collection/:field', async (ctx) => {
    const accountability = ctx.state.accountability;
    if (!accountability.user) throw new ForbiddenError();
    const schema = await app.schema.get();
    const collection = schema.collections[ctx.params.collection!];
    const field = collection?.fields[ctx.params.field!];
    // The same answer for a field that does not exist as for one the caller may not write: no existence oracle.
    if (!collection || !field) throw new ForbiddenError();
    const access = await resolveAccess(app.servicesContext(accountability), schema);
    if (access) {
      const writable = (['create', 'update'] as const).some((action) => {
        const allowed = access.allowedFields(collection.collection, action);
        return access.permission(collection.collection, action) !== null && (allowed === '*' || allowed.has(field.field));
      });
      if (!writable) throw new ForbiddenError();
    }
    if (field.meta?.interface !== AUTOCOMPLETE_INTERFACE) throw new InvalidPayloadError(`"${field.field}" does not use the ${AUTOCOMPLETE_INTERFACE} interface.`, { field: 'field' });
    const template = option(field, 'url');
    if (!template) throw new InvalidPayloadError(`"${field.field}" has no "url" option to fetch suggestions from.`, { field: 'url' });
    const { value } = validatePayload(querySchema, { value: typeof ctx.query.value === 'string' ? ctx.query.value : undefined });

    let body: string;
    try {
      const response = await outboundRequest({
        url: suggestionUrl(template, value),
        method: 'GET',
        headers: { accept: 'application/json' },
        allow: parseAllowList(app.config.outbound.allowedHosts),
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      if (response.status >= 400) throw new ServiceUnavailableError(`The suggestions address answered ${response.status}.`, { service: 'autocomplete' });
      body = response.body;
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new ForbiddenError(error.message, { field: 'url' });
      if (error instanceof ServiceUnavailableError) throw error;
      throw new ServiceUnavailableError(`The suggestions address could not be read: ${(error as Error).message}`, { service: 'autocomplete' });
    }
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      throw new ServiceUnavailableError('The suggestions address did not answer with JSON.', { service: 'autocomplete' });
    }
    ctx.body = { data: readSuggestions(data, { resultsPath: option(field, 'resultsPath'), textPath: option(field, 'textPath'), valuePath: option(field, 'valuePath') }) };
  });

  return router;
}

import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { normalizeEmail } from '../auth/email.ts';
import { InvalidPayloadError } from '../errors.ts';
import { inviteToShare } from '../services/share-invitations.ts';
import { SharesService } from '../services/shares-service.ts';
import { validatePayload } from '../services/validate-payload.ts';

const authSchema = yup.object({
  share: yup.string().required().max(64),
  password: yup.string().max(1024).optional(),
});

const inviteSchema = yup.object({
  share: yup.string().required().uuid(),
  emails: yup.mixed().required(),
});

/** Most addresses one share invitation may name. */
export const MAX_SHARE_INVITES = 50;

const emailSchema = yup.string().required().email().max(128);

/** `emails`: a list of 1 to MAX_SHARE_INVITES addresses, each normalised; a 400 naming `emails` otherwise. */
function parseEmails(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SHARE_INVITES) {
    throw new InvalidPayloadError(`"emails" must be a list of 1 to ${MAX_SHARE_INVITES} e-mail addresses.`, { field: 'emails' });
  }
  return value.map((entry) => {
    const email = typeof entry === 'string' ? normalizeEmail(entry) : entry;
    if (!emailSchema.isValidSync(email)) throw new InvalidPayloadError(`"emails" must hold e-mail addresses; ${JSON.stringify(entry)} is not one.`, { field: 'emails' });
    return email as string;
  });
}

/** `/shares/info/:id`, `/shares/auth` and `/shares/invite`; share CRUD is on the shared item routes. */
export function sharesController(app: AppContext): Router {
  const router = new Router({ prefix: '/shares' });

  router.get('/info/:id', async (ctx) => {
    ctx.body = { data: await new SharesService(app.servicesContext(ctx.state.accountability)).info(ctx.params.id!) };
  });

  router.post('/auth', async (ctx) => {
    const { share, password } = validatePayload(authSchema, ctx.request.body ?? {});
    ctx.body = { data: await new SharesService(app.servicesContext(ctx.state.accountability)).authenticate(share, password) };
  });

  router.post('/invite', async (ctx) => {
    const body = validatePayload(inviteSchema, ctx.request.body ?? {});
    await inviteToShare(app, ctx.state.accountability, { share: body.share, emails: parseEmails(body.emails) });
    ctx.status = 204;
  });

  return router;
}

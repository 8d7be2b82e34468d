import Router from '@koa/router';
import * as yup from 'yup';
import type { AppContext } from '../app-context.ts';
import { normalizeEmail } from '../auth/email.ts';
import { acceptInvite, invitePage, inviteUsers } from '../auth/invitations.ts';
import { InvalidPayloadError } from '../errors.ts';
import { validatePayload } from '../services/validate-payload.ts';

/** Most addresses one invitation request may name. */
export const MAX_INVITES_PER_REQUEST = 100;

const inviteSchema = yup.object({
  email: yup.mixed().required(),
  role: yup.string().required().uuid(),
  invite_url: yup.string().max(2048),
});

const acceptSchema = yup.object({
  token: yup.string().required().max(4096),
  password: yup.string().required().max(1024),
});

const emailSchema = yup.string().required().email().max(128);

/** `email` as one address or a list, each normalised and checked; a 400 naming `email` otherwise. */
function parseEmails(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.length > MAX_INVITES_PER_REQUEST) {
    throw new InvalidPayloadError(`"email" must be one e-mail address or a list of 1 to ${MAX_INVITES_PER_REQUEST}.`, { field: 'email' });
  }
  return list.map((entry) => {
    const email = typeof entry === 'string' ? normalizeEmail(entry) : entry;
    if (!emailSchema.isValidSync(email)) throw new InvalidPayloadError(`"email" must hold e-mail addresses; ${JSON.stringify(entry)} is not one.`, { field: 'email' });
    return email as string;
  });
}

/** `/users/invite` and `/users/invite/accept`: invitations by e-mail. */
export function inviteController(app: AppContext): Router {
  const router = new Router({ prefix: '/users/invite' });

  router.post('/', async (ctx) => {
    const body = validatePayload(inviteSchema, ctx.request.body ?? {});
    const emails = parseEmails(body.email);
    await inviteUsers(app, ctx.state.accountability, { emails, role: body.role, page: invitePage(app, body.invite_url) });
    ctx.status = 204;
  });

  router.post('/accept', async (ctx) => {
    const { token, password } = validatePayload(acceptSchema, ctx.request.body ?? {});
    await acceptInvite(app, token, password);
    ctx.status = 204;
  });

  return router;
}

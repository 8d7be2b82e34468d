import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_TOKENS_TABLE } from '../../../migrations/20261121000002-auth-verification-tokens.ts';
import { consumeSignInLink, sendSignInLink, SIGN_IN_LINK_TTL_MS } from '../../../server/auth/email-link.ts';
import { VerificationError } from '../../../server/errors.ts';
import { UsersService } from '../../../server/services/users-service.ts';
import { linkIn, startSesEmulator, type SesEmulator } from '../../helpers/ses-emulator.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

const PUBLIC_URL = 'http://tessera.test';
const CALLBACK = `${PUBLIC_URL}/admin/content?tab=1`;

describe('e-mail link sign-in tokens (SES)', () => {
  let ses: SesEmulator;
  let t: TestApp;
  let userId: string;

  const rows = () => t.system.db.selectFrom(VERIFICATION_TOKENS_TABLE).selectAll().execute();

  /** Sends a link to `email` and returns the link from the mail that arrives. */
  async function issue(email: string): Promise<URL> {
    const address = email.trim().toLowerCase();
    const before = (await ses.emailsTo(address)).length;
    await sendSignInLink(t.context, email, CALLBACK);
    const mails = await ses.waitForEmails(address, before + 1);
    expect(mails).toHaveLength(before + 1);
    return linkIn(mails.at(-1)!);
  }

  async function expectVerificationError(promise: Promise<unknown>): Promise<void> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(VerificationError);
    expect(error).toMatchObject({ status: 403, code: 'INVALID_VERIFICATION_TOKEN', message: 'The sign in link is no longer valid. It may have been used already or it may have expired.' });
  }

  beforeAll(async () => {
    ses = await startSesEmulator();
    t = await createTestApp({ ...ses.env, PUBLIC_URL });
    const users = new UsersService(t.system);
    userId = await users.createOne({ email: 'linker@example.com', password: 'linker-password' });
    await users.createOne({ email: 'invited@example.com', password: 'invited-password', status: 'invited' });
  });
  afterAll(async () => {
    await t.close();
    await ses.close();
  });

  it('mails <PUBLIC_URL>/auth/callback/email?token&email&callbackUrl and stores only the hash, for 24 h', async () => {
    const link = await issue(' Linker@Example.com ');
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/auth/callback/email`);
    expect(link.searchParams.get('email')).toBe('linker@example.com');
    expect(link.searchParams.get('callbackUrl')).toBe(CALLBACK);
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[\w-]{43}$/);

    const [mail] = await ses.emailsTo('linker@example.com');
    expect(mail!.subject).toBe('Sign in to tessera.test');
    expect(mail!.body.html).toContain(link.toString().replaceAll('&', '&amp;'));

    const stored = (await rows()).filter((row) => row.identifier === 'linker@example.com');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token).not.toBe(token);
    expect(stored[0]!.token).toMatch(/^[0-9a-f]{64}$/);
    const lifetime = new Date(stored[0]!.expires).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(SIGN_IN_LINK_TTL_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(SIGN_IN_LINK_TTL_MS);
    expect(SIGN_IN_LINK_TTL_MS).toBe(86_400_000);
  });

  it('consumes a link once: the user id, then VerificationError on replay', async () => {
    const link = await issue('linker@example.com');
    const token = link.searchParams.get('token')!;
    expect(await consumeSignInLink(t.context, 'LINKER@example.com', token)).toBe(userId);
    await expectVerificationError(consumeSignInLink(t.context, 'linker@example.com', token));
  });

  it('lets only one of two simultaneous uses succeed', async () => {
    const token = (await issue('linker@example.com')).searchParams.get('token')!;
    const results = await Promise.allSettled([consumeSignInLink(t.context, 'linker@example.com', token), consumeSignInLink(t.context, 'linker@example.com', token)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses an expired link, and expired rows are cleaned up', async () => {
    const token = (await issue('linker@example.com')).searchParams.get('token')!;
    await t.system.db.updateTable(VERIFICATION_TOKENS_TABLE).set({ expires: new Date(Date.now() - 1000) }).execute();
    await expectVerificationError(consumeSignInLink(t.context, 'linker@example.com', token));
    expect(await rows()).toHaveLength(0);

    const kept = (await issue('linker@example.com')).searchParams.get('token')!;
    await t.system.db.insertInto(VERIFICATION_TOKENS_TABLE).values({ token: 'f'.repeat(64), identifier: 'linker@example.com', expires: new Date(Date.now() - 1000) }).execute();
    await issue('linker@example.com');
    const left = await rows();
    expect(left).toHaveLength(2);
    expect(left.every((row) => new Date(row.expires).getTime() > Date.now())).toBe(true);
    expect(await consumeSignInLink(t.context, 'linker@example.com', kept)).toBe(userId);
  });

  it('refuses a token for another e-mail, an unknown token and junk without using the link up', async () => {
    const token = (await issue('linker@example.com')).searchParams.get('token')!;
    await expectVerificationError(consumeSignInLink(t.context, 'invited@example.com', token));
    await expectVerificationError(consumeSignInLink(t.context, 'linker@example.com', 'x'.repeat(43)));
    await expectVerificationError(consumeSignInLink(t.context, 'linker@example.com', ''));
    await expectVerificationError(consumeSignInLink(t.context, 'linker@example.com', 'y'.repeat(5000)));
    expect(await consumeSignInLink(t.context, 'linker@example.com', token)).toBe(userId);
  });

  it('refuses a link whose user stopped being active after it was sent', async () => {
    const token = (await issue('linker@example.com')).searchParams.get('token')!;
    await t.system.db.updateTable('tessera_users').set({ status: 'suspended' }).where('id', '=', userId).execute();
    try {
      await expectVerificationError(consumeSignInLink(t.context, 'linker@example.com', token));
    } finally {
      await t.system.db.updateTable('tessera_users').set({ status: 'active' }).where('id', '=', userId).execute();
    }
  });

  it('sends nothing, stores nothing and does not fail for unknown or inactive addresses', async () => {
    await ses.clear();
    const before = (await rows()).length;
    await sendSignInLink(t.context, 'nobody@example.com', CALLBACK);
    await sendSignInLink(t.context, 'invited@example.com', CALLBACK);
    expect(await ses.emails()).toHaveLength(0);
    expect(await rows()).toHaveLength(before);
  });

  it('rejects when the transport fails, so the pages can show EmailSignin', async () => {
    await ses.close();
    try {
      await expect(sendSignInLink(t.context, 'linker@example.com', CALLBACK)).rejects.toThrow();
    } finally {
      ses = await startSesEmulator();
    }
  });
});

import { apiData, apiRequest } from '../../providers/http-client.ts';

/** What `/users/me/tfa/generate` answers: the secret to store in an authenticator app, and its otpauth:// address. */
export interface TfaSecret {
  secret: string;
  otpauth_url: string;
}

/** Starts TFA set-up (the current password proves it is the user); nothing is stored until `enableTfa`. */
export function generateTfaSecret(password: string): Promise<TfaSecret> {
  return apiData<TfaSecret>('/users/me/tfa/generate', { method: 'POST', body: { password } });
}

/** Turns TFA on with the generated secret and a code the app shows for it. */
export async function enableTfa(secret: string, otp: string): Promise<void> {
  await apiRequest('/users/me/tfa/enable', { method: 'POST', body: { secret, otp } });
}

/** Turns TFA off; a current code is required, so a stolen session alone cannot. */
export async function disableTfa(otp: string): Promise<void> {
  await apiRequest('/users/me/tfa/disable', { method: 'POST', body: { otp } });
}

/** Whether the signed-in user has TFA on, and whether their role requires it (GET /users/me, open during set-up). */
export async function readTfaState(): Promise<{ enabled: boolean; enforced: boolean }> {
  const me = await apiData<{ tfa_secret: string | null; role?: { enforce_tfa?: boolean } | null }>('/users/me', { query: { fields: 'tfa_secret,role.enforce_tfa' } });
  return { enabled: me.tfa_secret !== null, enforced: Boolean(me.role?.enforce_tfa) };
}

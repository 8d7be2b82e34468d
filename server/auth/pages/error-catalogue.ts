/** One entry of the sign-in error catalogue (SPEC §8). */
export interface SignInErrorPage {
  status: number;
  heading: string;
  /** Paragraphs, exactly as SPEC §8 words them. */
  messages: string[];
}

const TRY_ANOTHER_ACCOUNT = 'Try signing in with a different account.';

/**
 * The error page for each `?error=` code. Texts and the statuses SPEC §8 gives are requirements; where it
 * shows no status, Tessera picks the nearest HTTP meaning (docs/auth.md lists them).
 */
export const SIGN_IN_ERRORS: Readonly<Record<string, SignInErrorPage>> = {
  default: { status: 400, heading: 'Error', messages: ['Unable to sign in.'] },
  Configuration: { status: 500, heading: 'Server error', messages: ['There is a problem with the server configuration.'] },
  AccessDenied: { status: 403, heading: 'Access denied', messages: ['You do not have permission to sign in.'] },
  Verification: {
    status: 403,
    heading: 'Unable to sign in',
    messages: ['The sign in link is no longer valid.', 'It may have been used already or it may have expired.'],
  },
  OAuthAccountNotLinked: { status: 403, heading: 'Error', messages: ['To confirm your identity, sign in with the same account you used originally.'] },
  EmailSignin: { status: 500, heading: 'Error', messages: ['The e-mail could not be sent.'] },
  CredentialsSignin: { status: 401, heading: 'Error', messages: ['Sign in failed. Check the details you provided are correct.'] },
  SessionRequired: { status: 401, heading: 'Error', messages: ['Please sign in to access this page.'] },
  OAuthSignin: { status: 400, heading: 'Error', messages: [TRY_ANOTHER_ACCOUNT] },
  OAuthCallback: { status: 400, heading: 'Error', messages: [TRY_ANOTHER_ACCOUNT] },
  OAuthCreateAccount: { status: 400, heading: 'Error', messages: [TRY_ANOTHER_ACCOUNT] },
  EmailCreateAccount: { status: 400, heading: 'Error', messages: [TRY_ANOTHER_ACCOUNT] },
  Callback: { status: 400, heading: 'Error', messages: [TRY_ANOTHER_ACCOUNT] },
};

/**
 * The page for a code: codes match case-insensitively (SPEC §8 writes `configuration`, links often
 * `Configuration`); unknown or missing codes get the default.
 */
export function signInErrorPage(code: unknown): SignInErrorPage {
  if (typeof code !== 'string') return SIGN_IN_ERRORS.default!;
  const key = Object.keys(SIGN_IN_ERRORS).find((candidate) => candidate.toLowerCase() === code.toLowerCase());
  return SIGN_IN_ERRORS[key ?? 'default']!;
}

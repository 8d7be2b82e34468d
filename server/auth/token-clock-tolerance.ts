/**
 * Seconds of clock difference tolerated when Tessera checks the time claims of JWTs it issued to itself
 * through the browser (SPEC §9 token clock tolerance: 15 s) — the OpenID request cookies, which another
 * instance behind the same load balancer may have sealed. Provider ID tokens use the identity client's
 * 10 s (oidc/provider-client.ts); access tokens and e-mail links keep their exact expiry.
 */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 15;

import { useGetIdentity } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import type { Identity } from '../../providers/auth-provider.ts';
import { apiRequest } from '../../providers/http-client.ts';

/** The page recorded last in this tab: newer than the identity's last_page, which is read at sign-in. */
let latestPage: string | null = null;

/** After sign-out: the next user of this tab starts from their own last page. */
export function forgetLatestPage(): void {
  latestPage = null;
}

/** Where the admin's root should go back to: this tab's latest page, else the one stored on the user. */
export function lastPageOf(identity: Pick<Identity, 'last_page'> | undefined): string | null {
  return latestPage ?? identity?.last_page ?? null;
}

/**
 * Records every page the user opens on the user (PATCH /users/me/track/page); the admin's root reopens it
 * (content/welcome-page.tsx).
 */
export function useLastPage() {
  const { data: identity } = useGetIdentity<Identity>();
  const location = useLocation();
  const recorded = useRef<string | null>(identity?.last_page ?? null);
  const page = `${location.pathname}${location.search}`;

  useEffect(() => {
    // The root is never a page to come back to (it is where the restore starts).
    if (!identity || recorded.current === page || location.pathname === '/') return;
    recorded.current = page;
    latestPage = page;
    // Best effort: a failure only loses the bookmark.
    apiRequest('/users/me/track/page', { method: 'PATCH', body: { last_page: page } }).catch(() => undefined);
  }, [identity, page, location.pathname]);
}

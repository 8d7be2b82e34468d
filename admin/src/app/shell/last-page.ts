import { useGetIdentity } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Identity } from '../../providers/auth-provider.ts';
import { apiRequest } from '../../providers/http-client.ts';
import { restorablePage } from './shell-rules.ts';

/**
 * Opening the admin's root after sign-in goes back to the user's last page; every page the user then
 * opens is recorded on the user (PATCH /users/me/track/page), once the restore has been decided.
 */
export function useLastPage() {
  const { data: identity } = useGetIdentity<Identity>();
  const location = useLocation();
  const navigate = useNavigate();
  const decided = useRef(false);
  const recorded = useRef<string | null>(null);
  const page = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (!identity || decided.current) return;
    decided.current = true;
    const target = restorablePage(identity.last_page);
    if (location.pathname === '/' && target && target !== page) {
      recorded.current = target;
      navigate(target, { replace: true });
    }
  }, [identity, location.pathname, page, navigate]);

  useEffect(() => {
    // The root is never a page to come back to (and is where the restore starts).
    if (!identity || !decided.current || recorded.current === page || location.pathname === '/') return;
    recorded.current = page;
    // Best effort: a failure only loses the bookmark.
    apiRequest('/users/me/track/page', { method: 'PATCH', body: { last_page: page } }).catch(() => undefined);
  }, [identity, page, location.pathname]);
}

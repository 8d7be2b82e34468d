import { useTranslate } from '@refinedev/core';
import { Alert, Button, Form, Input, Result, Spin } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { AuthCard } from '../../auth/auth-card.tsx';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { shareCall, type ShareInfo } from './share-api.ts';
import { readShared, SharedItemView, type SharedItem } from './shared-item-view.tsx';

/** The share session of this tab: kept for the tab's life so a reload does not spend another use. */
interface ShareSession {
  token: string;
  until: number;
}

const storageKey = (id: string) => `tessera.share.${id}`;

function storedSession(id: string): ShareSession | null {
  try {
    const session = JSON.parse(sessionStorage.getItem(storageKey(id)) ?? 'null') as ShareSession | null;
    return session && session.until > Date.now() ? session : null;
  } catch {
    return null;
  }
}

/**
 * `/admin/shared/:id`, the public page of a share (Directus's path): reads the share's public facts, asks
 * for its password when it has one, starts a share session (`POST /shares/auth`, which counts a use) and
 * shows the item read-only. It never uses the visitor's own session: what it shows is what the link shows.
 */
export default function SharePage() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const [info, setInfo] = useState<ShareInfo | null>(null);
  const [unusable, setUnusable] = useState(false);
  const [shared, setShared] = useState<SharedItem | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const open = useCallback(async (share: ShareInfo, session: ShareSession) => {
    try {
      setShared(await readShared(share, session.token));
    } catch {
      sessionStorage.removeItem(storageKey(id));
      setUnusable(true);
    }
  }, [id]);
  const enter = useCallback(async (share: ShareInfo, password?: string) => {
    setBusy(true);
    try {
      const tokens = await shareCall<{ access_token: string; expires: number }>('/shares/auth', { method: 'POST', body: { share: share.id, ...(password ? { password } : {}) } });
      const session = { token: tokens.access_token, until: Date.now() + tokens.expires };
      sessionStorage.setItem(storageKey(id), JSON.stringify(session));
      setPasswordError(null);
      await open(share, session);
    } catch (failure) {
      if ((failure as ApiHttpError).statusCode === 401) setPasswordError(translate('content.shares.wrongPassword'));
      else setUnusable(true);
    } finally {
      setBusy(false);
    }
  }, [id, open, translate]);

  // Runs once per share id: entering spends a use, so a re-render (the locale arriving) must not enter again.
  const started = useRef<string | null>(null);
  const first = useRef({ open, enter });
  first.current = { open, enter };
  useEffect(() => {
    if (started.current === id) return;
    started.current = id;
    shareCall<ShareInfo>(`/shares/info/${encodeURIComponent(id)}`).then(
      (loaded) => {
        setInfo(loaded);
        const session = storedSession(id);
        if (session) void first.current.open(loaded, session);
        else if (!loaded.password) void first.current.enter(loaded);
      },
      () => setUnusable(true),
    );
  }, [id]);

  if (unusable) {
    return (
      <AuthCard title={translate('content.shares.unavailableTitle')}>
        <div data-testid="shared-unavailable">
          <Result status="warning" style={{ padding: 0 }} subTitle={translate('content.shares.unavailable')} />
        </div>
      </AuthCard>
    );
  }
  if (shared) return <SharedItemView shared={shared} />;
  if (!info || !info.password) return <Spin size="large" style={{ display: 'block', margin: '35vh auto' }} />;
  return (
    <AuthCard title={translate('content.shares.protectedTitle')} subtitle={translate('content.shares.protectedBody')}>
      {passwordError && <Alert type="error" showIcon message={passwordError} style={{ marginBottom: 16 }} data-testid="shared-password-error" />}
      <Form layout="vertical" requiredMark={false} onFinish={({ password }: { password: string }) => void enter(info, password)}>
        <Form.Item name="password" label={translate('content.shares.password')} rules={[{ required: true, message: translate('auth.signIn.passwordRequired') }]}>
          <Input.Password size="large" autoFocus autoComplete="off" data-testid="shared-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="shared-enter">
          {translate('content.shares.view')}
        </Button>
      </Form>
    </AuthCard>
  );
}

import { CopyOutlined, DeleteOutlined, LockOutlined, MailOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Divider, Drawer, Empty, Flex, List, Popconfirm, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { mailTransport } from '../../app/mail-transport.ts';
import { useFormat } from '../../app/use-format.ts';
import { fetchIdentity } from '../../providers/auth-provider.ts';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { usePermissionIndex } from '../../providers/use-permissions.ts';
import { listShares, revokeShare, shareLink, type ShareRecord } from './share-api.ts';
import { InviteModal, NewShareForm } from './share-form.tsx';

/** Whether a share can be opened now: started, not ended, uses left. */
function shareState(share: ShareRecord, now = Date.now()): 'active' | 'scheduled' | 'expired' | 'usedUp' {
  if (share.date_start && Date.parse(share.date_start) > now) return 'scheduled';
  if (share.date_end && Date.parse(share.date_end) <= now) return 'expired';
  if (share.max_uses !== null && share.times_used >= share.max_uses) return 'usedUp';
  return 'active';
}

const STATE_COLOR = { active: 'green', scheduled: 'blue', expired: 'default', usedUp: 'orange' } as const;

/** The drawer of an item's shares: the list (copy the link, invite by e-mail, revoke) and a form for a new one. */
function SharesDrawer({ collection, item, open, onClose }: { collection: string; item: string; open: boolean; onClose(): void }) {
  const translate = useTranslate();
  const format = useFormat();
  const { message, modal } = App.useApp();
  const [shares, setShares] = useState<ShareRecord[] | null>(null);
  const [inviting, setInviting] = useState<ShareRecord | null>(null);
  const [admin, setAdmin] = useState(false);
  const load = useCallback(() => listShares(collection, item).then(setShares, (failure: ApiHttpError) => { setShares([]); message.error(failure.message); }), [collection, item, message]);
  useEffect(() => {
    if (!open) return;
    void load();
    void fetchIdentity().then((identity) => setAdmin(Boolean(identity.role?.admin_access)), () => setAdmin(false));
  }, [open, load]);
  const copy = async (share: ShareRecord) => {
    try {
      await navigator.clipboard.writeText(shareLink(share.id));
      message.success(translate('content.shares.copied'));
    } catch {
      message.info(shareLink(share.id));
    }
  };
  const revoke = async (share: ShareRecord) => {
    try {
      await revokeShare(share.id);
      message.success(translate('content.shares.revoked'));
      await load();
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    }
  };
  return (
    <Drawer open={open} onClose={onClose} title={translate('content.shares.title')} width={480} styles={{ wrapper: { maxWidth: '100vw' } }} destroyOnHidden data-testid="shares-drawer">
      <List<ShareRecord>
        loading={shares === null}
        dataSource={shares ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('content.shares.none')} /> }}
        renderItem={(share) => {
          const state = shareState(share);
          const uses = share.max_uses === null ? translate('content.shares.usesUnlimited', { used: share.times_used }) : translate('content.shares.uses', { used: share.times_used, max: share.max_uses });
          return (
            <List.Item
              data-testid={`share-row-${share.name ?? share.id}`}
              actions={[
                <Tooltip key="copy" title={translate('content.shares.copy')}><Button size="small" icon={<CopyOutlined />} aria-label={translate('content.shares.copy')} onClick={() => void copy(share)} data-testid="share-copy" /></Tooltip>,
                <Tooltip key="invite" title={translate('content.shares.invite')}><Button size="small" icon={<MailOutlined />} aria-label={translate('content.shares.invite')} onClick={() => setInviting(share)} data-testid="share-invite" /></Tooltip>,
                <Popconfirm key="revoke" title={translate('content.shares.confirmRevoke')} okButtonProps={{ danger: true }} onConfirm={() => revoke(share)}>
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.shares.revoke')} data-testid="share-revoke" />
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Flex gap={6} align="center" wrap>
                    <Typography.Text strong>{share.name || translate('content.shares.unnamed')}</Typography.Text>
                    {share.password && <LockOutlined aria-label={translate('content.shares.withPassword')} />}
                    <Tag color={STATE_COLOR[state]} data-testid="share-state">{translate(`content.shares.state.${state}`)}</Tag>
                  </Flex>
                }
                description={
                  <>
                    <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }} data-testid="share-uses">{uses}</Typography.Text>
                    {(share.date_start || share.date_end) && (
                      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                        {[share.date_start ? translate('content.shares.from', { date: format.date(share.date_start) }) : null, share.date_end ? translate('content.shares.until', { date: format.date(share.date_end) }) : null].filter(Boolean).join(' · ')}
                      </Typography.Text>
                    )}
                    <Typography.Text type="secondary" copyable={false} ellipsis style={{ fontSize: 12, display: 'block', maxWidth: 300 }} data-testid="share-link">{shareLink(share.id)}</Typography.Text>
                  </>
                }
              />
            </List.Item>
          );
        }}
      />
      <Divider orientation="left">{translate('content.shares.new')}</Divider>
      <NewShareForm
        collection={collection}
        item={item}
        chooseRole={admin}
        onCreated={(created) => {
          message.success(translate('content.shares.created'));
          void load().then(() => copy(created));
        }}
      />
      <InviteModal
        share={inviting}
        onClose={() => setInviting(null)}
        onSent={(count) => {
          setInviting(null);
          // With the outbox transport nothing was e-mailed: say where the messages are instead of "sent".
          void mailTransport().then((transport) => {
            if (transport === 'outbox') modal.warning({ title: translate('content.shares.toOutbox', { count }), content: <span data-testid="share-outbox-notice">{translate('content.shares.outbox')}</span> });
            else message.success(translate('content.shares.sent', { count }));
          });
        }}
      />
    </Drawer>
  );
}

/** The item form's Share button: shown to callers with share permission on the collection. */
export function ShareButton({ collection, id }: { collection: string; id: string }) {
  const translate = useTranslate();
  const permissions = usePermissionIndex();
  const [open, setOpen] = useState(false);
  if (!permissions?.can(collection, 'share')) return null;
  return (
    <>
      <Button icon={<ShareAltOutlined />} onClick={() => setOpen(true)} data-testid="share-button">
        {translate('content.shares.button')}
      </Button>
      <SharesDrawer collection={collection} item={id} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

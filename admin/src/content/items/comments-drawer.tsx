import { CommentOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useGetIdentity, useTranslate } from '@refinedev/core';
import { App, Avatar, Badge, Button, Drawer, Empty, Flex, List, Mentions, Popconfirm, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { assetUrl } from '../../app/project-settings.tsx';
import { useFormat } from '../../app/use-format.ts';
import type { Identity } from '../../providers/auth-provider.ts';
import { apiData, apiRequest, type ApiHttpError } from '../../providers/http-client.ts';
import { commentParts, toEditable, toStored } from './comment-text.ts';

interface CommentEntry {
  id: number;
  comment: string;
  timestamp: string | null;
  user: { id: string; name: string; avatar: string | null } | null;
}

interface Discussion {
  comments: CommentEntry[];
  mentions: Record<string, string>;
}

/** A text box that offers users to mention after `@`, and remembers who was picked (name → id). */
function CommentInput({ collection, item, value, onChange, picked, testId }: { collection: string; item: string; value: string; onChange(next: string): void; picked: Record<string, string>; testId: string }) {
  const translate = useTranslate();
  const [options, setOptions] = useState<Array<{ value: string; label: string; key: string }>>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const search = (term: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const users = await apiData<Array<{ id: string; name: string }>>('/activity/comment/mentionable', { query: { collection, item, search: term } }).catch(() => []);
      setOptions((users ?? []).map((user) => ({ value: user.name, label: user.name, key: user.id })));
    }, 150);
  };
  return (
    <Mentions
      value={value}
      onChange={onChange}
      onSearch={search}
      onSelect={(option) => {
        if (option.value && option.key) picked[option.value] = String(option.key);
      }}
      options={options}
      autoSize={{ minRows: 2, maxRows: 8 }}
      placeholder={translate('content.comments.placeholder')}
      data-testid={testId}
    />
  );
}

/** The discussion of an item: comments with their authors, @mentions, editing and deleting one's own. */
export function CommentsDrawer({ collection, id }: { collection: string; id: string }) {
  const translate = useTranslate();
  const format = useFormat();
  const { message } = App.useApp();
  const { data: identity } = useGetIdentity<Identity>();
  const [open, setOpen] = useState(false);
  const [discussion, setDiscussion] = useState<Discussion | null>(null);
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const picked = useRef<Record<string, string>>({});

  const load = useCallback(async () => {
    try {
      setDiscussion(await apiData<Discussion>('/activity/comment', { query: { collection, item: id } }));
    } catch {
      setDiscussion({ comments: [], mentions: {} });
    }
  }, [collection, id]);
  useEffect(() => {
    void load();
  }, [load]);

  const known = () => {
    // Names of users already mentioned count as picked, so editing keeps their mentions.
    const byName: Record<string, string> = {};
    for (const [user, name] of Object.entries(discussion?.mentions ?? {})) byName[name] = user;
    return { ...byName, ...picked.current };
  };

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      await load();
    } catch (error) {
      message.error((error as ApiHttpError).message);
    } finally {
      setBusy(false);
    }
  };

  const post = () =>
    run(async () => {
      await apiRequest('/activity/comment', { method: 'POST', body: { collection, item: id, comment: toStored(draft, known()) }, query: { fields: 'id' } });
      setDraft('');
    });
  const save = (comment: CommentEntry, text: string) =>
    run(async () => {
      await apiRequest(`/activity/comment/${comment.id}`, { method: 'PATCH', body: { comment: toStored(text, known()) }, query: { fields: 'id' } });
      setEditing(null);
    });
  const remove = (comment: CommentEntry) => run(() => apiRequest(`/activity/comment/${comment.id}`, { method: 'DELETE' }));

  const comments = discussion?.comments ?? [];
  const mine = (comment: CommentEntry) => Boolean(identity && (comment.user?.id === identity.id || identity.role?.admin_access));

  return (
    <>
      <Badge count={comments.length} size="small" color="gray">
        <Button icon={<CommentOutlined />} onClick={() => setOpen(true)} data-testid="open-comments">
          {translate('content.comments.title')}
        </Button>
      </Badge>
      <Drawer open={open} onClose={() => setOpen(false)} title={translate('content.comments.title')} width={440}>
        <Flex vertical gap={16}>
          {discussion && comments.length === 0 ? (
            <Empty description={translate('content.comments.none')} />
          ) : (
            <List
              loading={discussion === null}
              dataSource={comments}
              renderItem={(comment) => (
                <List.Item
                  data-testid={`comment-${comment.id}`}
                  actions={
                    mine(comment) && editing?.id !== comment.id
                      ? [
                          <Button key="edit" type="text" size="small" icon={<EditOutlined />} aria-label={translate('content.comments.edit')} onClick={() => setEditing({ id: comment.id, text: toEditable(comment.comment, discussion?.mentions ?? {}) })} data-testid={`comment-edit-${comment.id}`} />,
                          <Popconfirm key="delete" title={translate('content.comments.confirmDelete')} onConfirm={() => remove(comment)}>
                            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={translate('content.comments.delete')} data-testid={`comment-delete-${comment.id}`} />
                          </Popconfirm>,
                        ]
                      : []
                  }
                >
                  <List.Item.Meta
                    avatar={<Avatar src={comment.user?.avatar ? assetUrl(comment.user.avatar, { width: 64, height: 64, fit: 'cover' }) : undefined}>{(comment.user?.name ?? '?').slice(0, 1).toUpperCase()}</Avatar>}
                    title={
                      <Space size={8}>
                        <Typography.Text strong>{comment.user?.name ?? translate('content.comments.deletedUser')}</Typography.Text>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {format.date(comment.timestamp)}
                        </Typography.Text>
                      </Space>
                    }
                    description={
                      editing?.id === comment.id ? (
                        <Flex vertical gap={8}>
                          <CommentInput collection={collection} item={id} value={editing.text} onChange={(text) => setEditing({ id: comment.id, text })} picked={picked.current} testId={`comment-editor-${comment.id}`} />
                          <Space>
                            <Button size="small" type="primary" loading={busy} disabled={!editing.text.trim()} onClick={() => save(comment, editing.text)} data-testid={`comment-save-${comment.id}`}>
                              {translate('content.comments.save')}
                            </Button>
                            <Button size="small" onClick={() => setEditing(null)}>
                              {translate('content.comments.cancel')}
                            </Button>
                          </Space>
                        </Flex>
                      ) : (
                        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0, color: 'inherit' }} data-testid={`comment-text-${comment.id}`}>
                          {commentParts(comment.comment, discussion?.mentions ?? {}).map((part, index) =>
                            'text' in part ? (
                              <span key={index}>{part.text}</span>
                            ) : (
                              <Tag key={index} bordered={false} color="processing" style={{ marginInline: 2 }}>
                                @{part.name ?? translate('content.comments.someone')}
                              </Tag>
                            ),
                          )}
                        </Typography.Paragraph>
                      )
                    }
                  />
                </List.Item>
              )}
            />
          )}
          <Flex vertical gap={8}>
            <CommentInput collection={collection} item={id} value={draft} onChange={setDraft} picked={picked.current} testId="comment-input" />
            <Button type="primary" onClick={post} loading={busy} disabled={!draft.trim()} style={{ alignSelf: 'flex-end' }} data-testid="comment-post">
              {translate('content.comments.post')}
            </Button>
          </Flex>
        </Flex>
      </Drawer>
    </>
  );
}

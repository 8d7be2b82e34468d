import { ArrowLeftOutlined, DeleteOutlined, DiffOutlined } from '@ant-design/icons';
import { useForm } from '@refinedev/antd';
import { useDelete, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Card, Col, Form, Popconfirm, Result, Row, Space, Spin, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import type { ApiHttpError } from '../../providers/http-client.ts';
import { useNavigate, useParams } from 'react-router';
import { renderTemplate } from '../display-template.ts';
import { templateOf } from '../interfaces/related.ts';
import { ItemFields } from './item-fields.tsx';
import { FieldHistoryProvider } from './field-history.tsx';
import { defaultValues, formReadFields, toPayload } from './payload.ts';
import { CommentsDrawer } from './comments-drawer.tsx';
import { ArchiveButton, PreviewToggle, useSaveAsCopy } from './item-extra-actions.tsx';
import { ItemSaveMenu, type AfterSave } from './item-save-menu.tsx';
import { useSaveShortcut, useUnsavedChanges } from './use-unsaved-changes.ts';
import { useEditsDuringSave } from './use-edits-during-save.ts';
import { VersionCompare } from './version-compare.tsx';
import { VersionSwitcher } from './version-switcher.tsx';
import { saveToVersion, type VersionRecord } from './versions-api.ts';
import { RevisionsDrawer } from './revisions-drawer.tsx';
import { ManualFlowButtons } from '../../modules/flows/manual-flow-buttons.tsx';
import { ShareButton } from './share-button.tsx';
import { useCollection } from './use-collection.ts';
import { itemPath, resourcePath } from '../../providers/resource-paths.ts';
import { CollabFieldsProvider } from './collab-field.tsx';
import { PresenceAvatars } from './presence-avatars.tsx';
import { SaveConflictDialog } from './save-conflict-dialog.tsx';
import { useItemCollab } from './use-item-collab.ts';
import { useSaveConflict } from './use-save-conflict.ts';

/** The item form: `/content/:collection/+` creates, `/content/:collection/:id` edits; singletons edit their one item. */
export default function ItemEditPage({ singleton = false }: { singleton?: boolean }) {
  const params = useParams();
  const collection = params.collection ?? '';
  const id = singleton ? undefined : params.id;
  const creating = !singleton && id === undefined;
  const translate = useTranslate();
  const navigate = useNavigate();
  const model = useCollection(collection);
  const { locale } = usePreferences();
  const readFields = useMemo(() => formReadFields(model.fields, model.targetOf, model.labelFieldsOf), [model]);
  const { mutate: deleteItem, mutation: deletion } = useDelete();
  // The version being edited (collections with versioning): reads carry ?version=, saves go into it.
  const [version, setVersion] = useState<VersionRecord | null>(null);
  const [comparing, setComparing] = useState(false);
  const [versionSaving, setVersionSaving] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const { message } = App.useApp();
  const unsaved = useUnsavedChanges();
  const afterSave = useRef<AfterSave>('stay');
  // No lost updates: saves send the ETag the item was read with; a 412 opens the merge dialog.
  const conflict = useSaveConflict({
    resource: collection,
    id: singleton ? 'singleton' : id,
    path: creating ? null : singleton ? resourcePath(collection) : itemPath(collection, id!),
    meta: { fields: readFields, singleton },
    onSaved: () => {
      setHeldVersion(null);
      void query?.refetch().finally(() => (ownSave.current = false));
    },
    onFailed: () => (ownSave.current = false),
  });

  // From submit until the read after it: the room's `save` of this very save is not someone else's.
  const ownSave = useRef(false);
  // While a live merge left conflicts, saves name the version the edits were made on, so the server
  // answers 412 and the merge dialog settles them (docs/collaboration.md).
  const [heldVersion, setHeldVersion] = useState<string | null>(null);
  const { formProps, saveButtonProps, query, onFinish, formLoading } = useForm({
    resource: collection,
    action: creating ? 'create' : 'edit',
    id: singleton ? 'singleton' : id,
    meta: { fields: readFields, singleton, query: version ? { version: version.key } : undefined },
    mutationMeta: creating ? undefined : heldVersion ? { ...conflict.mutationMeta, ifMatch: heldVersion } : conflict.mutationMeta,
    redirect: false,
    queryOptions: { enabled: !creating && model.fields.length > 0 },
    // A refusal that names fields of this form shows on them; a second message in a card would repeat it.
    errorNotification: (error) => {
      if (conflict.caught(error as ApiHttpError | undefined)) return false;
      const named = Object.keys((error as ApiHttpError | undefined)?.errors ?? {});
      if (named.length > 0 && named.every((name) => model.fields.some((field) => field.field === name))) return false;
      return { type: 'error', message: translate(creating ? 'notifications.createError' : 'notifications.editError'), description: error?.message };
    },
    onMutationError: () => {
      ownSave.current = false;
      duringSave.failed();
    },
    onMutationSuccess: (result) => {
      unsaved.release();
      duringSave.saved();
      setHeldVersion(null);
      if (afterSave.current === 'new') {
        afterSave.current = 'stay';
        if (creating) formProps.form?.resetFields();
        else navigate(`/content/${collection}/+`);
        return;
      }
      if (!creating) {
        void query?.refetch().finally(() => (ownSave.current = false));
        return;
      }
      ownSave.current = false;
      const key = (result.data as Record<string, unknown> | undefined)?.[model.primaryKey];
      navigate(key !== undefined && key !== null ? `/content/${collection}/${encodeURIComponent(String(key))}` : `/content/${collection}`, { replace: true });
    },
  });

  const initial = (query?.data?.data ?? null) as Record<string, unknown> | null;
  // Typing goes on while a save is on its way: the read after the save keeps those edits.
  const duringSave = useEditsDuringSave(formProps.form, initial, unsaved.markDirty);
  // Who else has this item open, their field locks and their saves (after useForm: it merges into its form).
  const collab = useItemCollab({
    collection,
    item: singleton ? null : (id ?? null),
    version: version?.key ?? null,
    enabled: !creating && Boolean(model.info) && model.can('read'),
    form: formProps.form,
    loaded: initial,
    reload: async () => (await query?.refetch())?.data?.data as Record<string, unknown> | undefined,
    onGone: () => navigate(`/content/${collection}`),
    ownSaveRunning: () => ownSave.current,
    itemVersion: conflict.mutationMeta.ifMatch ?? null,
    onConflictsFrom: (base) => setHeldVersion((held) => held ?? base),
  });
  const action = creating ? 'create' : 'update';
  const canSave = creating ? model.can('create') : model.can('update') || (singleton && model.can('create'));
  const writable = (field: { field: string }) => model.canField(action, field.field) || (singleton && model.canField('create', field.field));

  const versioned = !creating && !singleton && model.info?.meta?.versioning === true;
  const meta = model.info?.meta;
  const archiveField = meta?.archive_field ? model.fields.find((field) => field.field === meta.archive_field) : undefined;
  const previewUrl = !creating && meta?.preview_url && initial ? renderTemplate(meta.preview_url, initial) : null;
  // The form's unsaved changes to plain fields, carried into a copy (relations come from the original).
  const unsavedEdits = () => {
    const values = (formProps.form?.getFieldsValue() ?? {}) as Record<string, unknown>;
    const plain = model.fields.filter((field) => !model.targetOf(field) || field.type !== 'alias');
    return toPayload(plain, values, initial, writable, model.targetOf);
  };
  const saveVersion = async (payload: Record<string, unknown>) => {
    if (!version || Object.keys(payload).length === 0) return;
    setVersionSaving(true);
    try {
      await saveToVersion(version.id, payload);
      unsaved.release();
      duringSave.saved();
      message.success(translate('content.versions.saved', { name: version.name || version.key }));
      await query?.refetch();
    } catch (failure) {
      duringSave.failed();
      const error = failure as ApiHttpError;
      const named = Object.entries(error.errors ?? {}).map(([name, errors]) => ({ name, errors: Array.isArray(errors) ? errors : [String(errors)] }));
      if (named.length > 0) formProps.form?.setFields(named);
      else message.error(error.message);
    } finally {
      setVersionSaving(false);
    }
  };

  const save = (after: AfterSave) => {
    // A save into a version stays on it.
    afterSave.current = version ? 'stay' : after;
    formProps.form?.submit();
  };
  const copyable = !creating && !singleton && !version && model.can('create');
  const saveAsCopy = useSaveAsCopy({ collection, id: String(id), fields: model.fields, duplication: meta?.item_duplication_fields, targetOf: model.targetOf, edits: unsavedEdits, beforeOpen: unsaved.release });
  useSaveShortcut(() => save('stay'), canSave && !!model.info);

  if (model.schema.loading || !model.permissions) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  if (!model.info || !model.can('read')) return <Result status="403" subTitle={translate('app.forbidden')} />;
  if (query?.isError && !creating) return <Result status="warning" subTitle={query.error?.message ?? translate('content.item.notFound')} extra={<Button onClick={() => navigate(`/content/${collection}`)}>{translate('content.item.backToList')}</Button>} />;

  // "New Article" needs the collection's singular name; without one the list's name is shown above instead.
  const hasSingular = model.singularLabel !== model.label;
  const title = creating
    ? hasSingular
      ? translate('content.item.createTitle', { collection: model.singularLabel })
      : translate('content.item.createTitleUnnamed')
    : singleton
      ? model.label
      : renderTemplate(templateOf(model.schema, collection), initial, model.primaryKey) || `${model.singularLabel} ${id}`;

  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Space align="center">
          {!singleton && <Button type="text" icon={<ArrowLeftOutlined />} aria-label={translate('content.item.backToList')} onClick={() => navigate(`/content/${collection}`)} data-testid="item-back" />}
          <div>
            {!singleton && <Typography.Text type="secondary">{model.label}</Typography.Text>}
            <Typography.Title level={3} style={{ margin: 0 }} data-testid="item-title">
              {title}
            </Typography.Title>
          </div>
        </Space>
        <Space wrap>
          <PresenceAvatars users={collab.others} />
          {versioned && <VersionSwitcher collection={collection} item={String(id)} value={version} onChange={setVersion} />}
          {versioned && version && (
            <Button icon={<DiffOutlined />} onClick={() => setComparing(true)} data-testid="version-compare">
              {translate('content.versions.compare')}
            </Button>
          )}
          {!creating && !singleton && <ManualFlowButtons collection={collection} keys={[String(id)]} location="item" />}
          {previewUrl && <PreviewToggle open={previewOpen} onToggle={() => setPreviewOpen(!previewOpen)} />}
          {!creating && !singleton && <CommentsDrawer collection={collection} id={String(id)} />}
          {!creating && !singleton && <ShareButton collection={collection} id={String(id)} />}
          {!creating && !singleton && archiveField && model.canField('update', archiveField.field) && (
            <ArchiveButton collection={collection} id={String(id)} item={initial} field={archiveField} archive={meta?.archive_value ?? null} unarchive={meta?.unarchive_value ?? null} onDone={() => void query?.refetch()} />
          )}
          {!creating && !singleton && model.info.meta?.accountability === 'all' && <RevisionsDrawer collection={collection} id={String(id)} onRestored={() => void query?.refetch()} />}
          {!creating && !singleton && model.can('delete') && (
            <Popconfirm
              title={translate('content.item.confirmDelete')}
              okButtonProps={{ danger: true }}
              onConfirm={() => deleteItem({ resource: collection, id: String(id) }, { onSuccess: () => navigate(`/content/${collection}`) })}
            >
              <Button danger icon={<DeleteOutlined />} loading={deletion.isPending}>
                {translate('buttons.delete')}
              </Button>
            </Popconfirm>
          )}
          {canSave && (
            <ItemSaveMenu
              label={version ? translate('content.versions.saveTo', { name: version.name || version.key }) : translate('buttons.save')}
              buttonProps={{ ...saveButtonProps, loading: saveButtonProps.loading || versionSaving }}
              onSave={save}
              createNew={!singleton && !version && model.can('create')}
              onCopy={copyable ? () => void saveAsCopy.copy() : undefined}
              copying={saveAsCopy.busy}
            />
          )}
        </Space>
      </Space>
      {model.info.meta?.note && <Alert type="info" showIcon message={resolveText(model.info.meta.note, locale)} style={{ marginBottom: 16 }} />}
      {!canSave && <Alert type="warning" showIcon message={translate('content.item.readOnly')} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col xs={24} xl={previewUrl && previewOpen ? 12 : 24}>
          <Card loading={formLoading && !creating && !initial}>
            <Form
              {...formProps}
              initialValues={creating ? defaultValues(model.fields) : formProps.initialValues}
              layout="vertical"
              scrollToFirstError
              onFinish={(values) => {
                const payload = toPayload(model.fields, values as Record<string, unknown>, creating ? null : initial, writable, model.targetOf, (name) => model.schema.fieldsOf(name).map((entry) => entry.field));
                if (!creating) duringSave.sending(formProps.form?.getFieldsValue(true) ?? {});
                if (version) return void saveVersion(payload);
                conflict.beforeSave(payload);
                ownSave.current = true;
                // A refused save shows its errors on the fields (Refine maps the HttpError); nothing else to do.
                onFinish(payload).catch(() => unsaved.markDirty());
              }}
            >
              <CollabFieldsProvider value={collab.fields}>
                <FieldHistoryProvider collection={collection} item={!creating && !singleton && model.info.meta?.accountability === 'all' ? String(id) : null} version={query?.dataUpdatedAt}>
                  <ItemFields fields={model.fields} creating={creating} canWrite={writable} />
                </FieldHistoryProvider>
              </CollabFieldsProvider>
            </Form>
          </Card>
        </Col>
        {previewUrl && previewOpen && (
          <Col xs={24} xl={12}>
            <Card size="small" title={<Typography.Link href={previewUrl} target="_blank" rel="noreferrer">{previewUrl}</Typography.Link>} styles={{ body: { padding: 0 } }}>
              {/* Read again after each save (the query's update time is in the key), so the page shows what was saved. */}
              <iframe key={query?.dataUpdatedAt} src={previewUrl} title={translate('content.item.preview')} style={{ width: '100%', height: '70vh', border: 0, display: 'block' }} sandbox="allow-scripts allow-same-origin allow-forms allow-popups" data-testid="item-preview" />
            </Card>
          </Col>
        )}
      </Row>
      <SaveConflictDialog
        {...conflict.dialog}
        onSave={(payload, etag) => {
          ownSave.current = true;
          conflict.dialog.onSave(payload, etag);
        }}
        fields={model.fields}
        base={initial}
      />
      {versioned && version && (
        <VersionCompare
          version={version}
          fields={model.fields}
          open={comparing}
          onClose={() => setComparing(false)}
          onPromoted={() => {
            setComparing(false);
            setVersion(null);
          }}
        />
      )}
    </div>
  );
}

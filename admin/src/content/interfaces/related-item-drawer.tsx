import { PlusOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Drawer, Form, Space } from 'antd';
import { useMemo } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { usePermissionIndex } from '../../providers/use-permissions.ts';
import { ItemFields } from '../items/item-fields.tsx';
import { defaultValues, toPayload } from '../items/payload.ts';
import { collectionLabel } from '../navigation.ts';
import { useSchema } from '../schema/schema-context.tsx';
import type { FieldInfo } from '../schema/types.ts';
import { relatedTarget, type RelatedTarget } from './related.ts';

type Item = Record<string, unknown>;

/**
 * A new related item, filled in a drawer with the related collection's own form (its interfaces,
 * required fields and conditions). Nothing is saved here: `onCreate` gets the item in payload form and
 * the parent form sends it with its own save, in one transaction (nested relational write). The o2m
 * field pointing back at the parent is left out: the API sets it. So is, for a recursive one-to-many (a tree),
 * the list of the new item's own children: a drawer inside the drawer would nest without end, and the list
 * would read the children of the item the page shows.
 */
export function RelatedItemDrawer({ target, open, onClose, onCreate }: { target: RelatedTarget; open: boolean; onClose: () => void; onCreate: (item: Item) => void }) {
  const translate = useTranslate();
  const schema = useSchema();
  const permissions = usePermissionIndex();
  const { locale } = usePreferences();
  const [form] = Form.useForm();
  const info = schema.collection(target.collection);
  const fields = useMemo(() => {
    const back = target.backField ? schema.relations.find((relation) => relation.collection === target.collection && relation.field === target.backField) : undefined;
    const ownList = back?.related_collection === target.collection ? back.meta?.one_field : undefined;
    return schema.fieldsOf(target.collection).filter((field) => field.field !== target.backField && field.field !== ownList);
  }, [schema, target]);
  const writable = (field: FieldInfo) => permissions?.canField(target.collection, 'create', field.field) ?? false;
  const label = info ? collectionLabel(info, locale) : target.collection;

  const add = async () => {
    const values = (await form.validateFields()) as Item;
    onCreate(toPayload(fields, values, null, writable, (field) => relatedTarget(schema, field)));
    form.resetFields();
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={640}
      destroyOnHidden
      title={translate('content.relation.createTitle', { collection: label })}
      extra={
        <Space>
          <Button onClick={onClose}>{translate('buttons.cancel')}</Button>
          <Button type="primary" onClick={() => void add().catch(() => undefined)} data-testid="related-create-add">
            {translate('content.relation.createAdd')}
          </Button>
        </Space>
      }
      data-testid={`related-drawer-${target.collection}`}
    >
      <Form form={form} layout="vertical" initialValues={defaultValues(fields)} onFinish={() => void add().catch(() => undefined)}>
        <ItemFields fields={fields} creating canWrite={writable} />
      </Form>
    </Drawer>
  );
}

/** The *Create new* button of a relational field, which opens its RelatedItemDrawer. */
export function CreateRelatedButton({ field, onClick }: { field: string; onClick: () => void }) {
  const translate = useTranslate();
  return (
    <Button icon={<PlusOutlined />} onClick={onClick} data-testid={`create-related-${field}`}>
      {translate('content.relation.createNew')}
    </Button>
  );
}

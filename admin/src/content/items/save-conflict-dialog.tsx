import { useTranslate } from '@refinedev/core';
import { Alert, Button, Modal, Radio, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { fieldLabel } from '../field-label.ts';
import type { FieldInfo } from '../schema/types.ts';
import type { SaveConflict } from './use-save-conflict.ts';

type Side = 'theirs' | 'mine';

const shown = (value: unknown): string => (value === null || value === undefined || value === '' ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A field where the saved item and this form disagree: each side's value and which one is kept. */
interface Row {
  field: FieldInfo;
  theirs: unknown;
  mine: unknown;
}

/** The rows to decide: fields this form changed or they changed, whose two values differ. */
function rowsOf(fields: FieldInfo[], base: Record<string, unknown> | null, conflict: SaveConflict): Row[] {
  const rows: Row[] = [];
  for (const field of fields) {
    const name = field.field;
    const mineChanged = Object.hasOwn(conflict.mine, name);
    const theirsKnown = Object.hasOwn(conflict.theirs, name);
    if (!mineChanged && !(theirsKnown && !same(conflict.theirs[name], base?.[name]))) continue;
    const mine = mineChanged ? conflict.mine[name] : base?.[name];
    const theirs = theirsKnown ? conflict.theirs[name] : base?.[name];
    if (!same(mine, theirs)) rows.push({ field, theirs, mine });
  }
  return rows;
}

/**
 * Shown when a save was refused because the item changed since it was read (412): field by field, the saved
 * value ("theirs") beside this form's ("mine"), one of them picked each time; saving sends the picked values
 * of this form with the item's current ETag, so theirs are kept wherever theirs were picked or untouched here.
 */
export function SaveConflictDialog({ conflict, fields, base, saving, onCancel, onSave }: {
  conflict: SaveConflict | null;
  fields: FieldInfo[];
  /** The item as this form read it. */
  base: Record<string, unknown> | null;
  saving: boolean;
  onCancel(): void;
  onSave(payload: Record<string, unknown>, etag: string): void;
}) {
  const translate = useTranslate();
  const { locale } = usePreferences();
  const rows = useMemo(() => (conflict ? rowsOf(fields, base, conflict) : []), [conflict, fields, base]);
  const [picked, setPicked] = useState<Record<string, Side>>({});
  useEffect(() => {
    setPicked(Object.fromEntries(rows.map((row) => [row.field.field, conflict && Object.hasOwn(conflict.mine, row.field.field) ? 'mine' : 'theirs'])));
  }, [rows, conflict]);

  const save = () => {
    if (!conflict) return;
    const payload: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(conflict.mine)) if (picked[name] !== 'theirs') payload[name] = value;
    // "Mine" for a field only they changed puts back the value this form read.
    for (const row of rows) if (picked[row.field.field] === 'mine' && !Object.hasOwn(conflict.mine, row.field.field)) payload[row.field.field] = row.mine;
    onSave(payload, conflict.etag);
  };

  return (
    <Modal
      open={conflict !== null}
      onCancel={onCancel}
      width={860}
      title={translate('content.conflict.title')}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {translate('content.conflict.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={save} data-testid="conflict-save">
          {translate('content.conflict.save')}
        </Button>,
      ]}
    >
      <div data-testid="conflict-dialog">
        <Alert type="warning" showIcon message={translate('content.conflict.intro')} style={{ marginBottom: 12 }} />
        <Table<Row>
          rowKey={(row) => row.field.field}
          size="small"
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: translate('content.conflict.empty') }}
          columns={[
            { key: 'field', title: translate('content.conflict.field'), render: (_, row) => <Typography.Text strong>{fieldLabel(row.field, locale)}</Typography.Text> },
            { key: 'theirs', title: translate('content.conflict.theirs'), render: (_, row) => <Typography.Text data-testid={`conflict-theirs-${row.field.field}`}>{shown(row.theirs)}</Typography.Text> },
            { key: 'mine', title: translate('content.conflict.mine'), render: (_, row) => <Typography.Text data-testid={`conflict-mine-${row.field.field}`}>{shown(row.mine)}</Typography.Text> },
            {
              key: 'keep',
              title: translate('content.conflict.keep'),
              render: (_, row) => (
                <Radio.Group size="small" value={picked[row.field.field]} onChange={(event) => setPicked({ ...picked, [row.field.field]: event.target.value as Side })}>
                  <Radio.Button value="theirs">
                    <span data-testid={`conflict-pick-${row.field.field}-theirs`}>{translate('content.conflict.theirs')}</span>
                  </Radio.Button>
                  <Radio.Button value="mine">
                    <span data-testid={`conflict-pick-${row.field.field}-mine`}>{translate('content.conflict.mine')}</span>
                  </Radio.Button>
                </Radio.Group>
              ),
            },
          ]}
        />
      </div>
    </Modal>
  );
}

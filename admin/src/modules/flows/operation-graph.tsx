import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { buildChain, type ChainNode, type OperationRecord } from './operation-types.ts';
import type { OperationSlot } from './operation-modal.tsx';

interface GraphActions {
  onAdd(slot: OperationSlot): void;
  onEdit(operation: OperationRecord): void;
  onDelete(operation: OperationRecord): void;
}

function Branch({ kind, parent, child, actions }: { kind: 'resolve' | 'reject'; parent: OperationRecord; child: ChainNode | null; actions: GraphActions }) {
  const { translate } = useTranslation();
  const colour = kind === 'resolve' ? '#52c41a' : '#ff4d4f';
  return (
    <div style={{ borderLeft: `2px solid ${colour}`, paddingLeft: 12, marginTop: 8 }} data-testid={`branch-${parent.key}-${kind}`}>
      <Typography.Text style={{ color: colour, fontSize: 12 }}>
        {kind === 'resolve' ? <CheckOutlined /> : <CloseOutlined />} {translate(`flows.operations.${kind}`)}
      </Typography.Text>
      {child ? (
        <Node node={child} actions={actions} />
      ) : (
        <div>
          <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={() => actions.onAdd({ kind, parent })} data-testid={`operation-add-${parent.key}-${kind}`}>
            {translate('flows.operations.add')}
          </Button>
        </div>
      )}
    </div>
  );
}

function OperationCard({ operation, actions, children }: { operation: OperationRecord; actions: GraphActions; children?: ReactNode }) {
  const { translate } = useTranslation();
  return (
    <Card
      size="small"
      style={{ marginTop: 6, maxWidth: 560 }}
      data-testid={`operation-${operation.key}`}
      title={
        <Space>
          <Tag color="blue">{translate(`flows.operationTypes.${operation.type}`, operation.type)}</Tag>
          <Typography.Text strong>{operation.name || operation.key}</Typography.Text>
          <Typography.Text type="secondary" code>
            {operation.key}
          </Typography.Text>
        </Space>
      }
      extra={
        <Space size={0}>
          <Button size="small" type="text" icon={<EditOutlined />} aria-label={translate('shared.actions.edit')} onClick={() => actions.onEdit(operation)} data-testid={`operation-edit-${operation.key}`} />
          <Popconfirm title={translate('flows.operations.deleteConfirm')} okText={translate('shared.actions.delete')} cancelText={translate('shared.actions.cancel')} okButtonProps={{ danger: true }} onConfirm={() => actions.onDelete(operation)}>
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={translate('shared.actions.delete')} data-testid={`operation-delete-${operation.key}`} />
          </Popconfirm>
        </Space>
      }
    >
      {children}
    </Card>
  );
}

function Node({ node, actions }: { node: ChainNode; actions: GraphActions }) {
  return (
    <div>
      <OperationCard operation={node.operation} actions={actions}>
        <OptionsSummary options={node.operation.options} />
      </OperationCard>
      <div style={{ marginLeft: 24 }}>
        <Branch kind="resolve" parent={node.operation} child={node.resolve} actions={actions} />
        {node.operation.type === 'condition' || node.reject ? <Branch kind="reject" parent={node.operation} child={node.reject} actions={actions} /> : <RejectHint node={node} actions={actions} />}
      </div>
    </div>
  );
}

/** Every operation may reject; the reject path is offered compactly unless it is used (or the type is a condition). */
function RejectHint({ node, actions }: { node: ChainNode; actions: GraphActions }) {
  const { translate } = useTranslation();
  return (
    <Button size="small" type="link" danger onClick={() => actions.onAdd({ kind: 'reject', parent: node.operation })} data-testid={`operation-add-${node.operation.key}-reject`}>
      + {translate('flows.operations.reject')}
    </Button>
  );
}

function OptionsSummary({ options }: { options: Record<string, unknown> | null }) {
  const entries = Object.entries(options ?? {});
  if (entries.length === 0) return null;
  return (
    <div style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 120, overflow: 'auto' }}>
      {entries.map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`).join('\n')}
    </div>
  );
}

/** The flow's chain drawn as a tree from its trigger: each operation with its resolve and reject paths. */
export function OperationGraph({ first, operations, triggerLabel, actions }: { first: string | null; operations: OperationRecord[]; triggerLabel: string; actions: GraphActions }) {
  const { translate } = useTranslation();
  const { root, detached } = buildChain(first, operations);
  return (
    <div data-testid="operation-graph">
      <Tag color="purple" style={{ fontSize: 13, padding: '2px 8px' }}>
        {triggerLabel}
      </Tag>
      <div style={{ borderLeft: '2px solid #722ed1', paddingLeft: 12, marginTop: 8 }}>
        {root ? (
          <Node node={root} actions={actions} />
        ) : (
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => actions.onAdd({ kind: 'first' })} data-testid="operation-add-first">
            {translate('flows.operations.addFirst')}
          </Button>
        )}
      </div>
      {detached.length > 0 && (
        <div style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">{translate('flows.operations.detached')}</Typography.Text>
          {detached.map((operation) => (
            <OperationCard key={operation.id} operation={operation} actions={actions} />
          ))}
        </div>
      )}
    </div>
  );
}

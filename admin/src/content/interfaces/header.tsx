import { QuestionCircleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Flex, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { usePreferences } from '../../app/preferences.tsx';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { resolveText } from '../../i18n/custom-texts.ts';
import { apiData, apiRequest } from '../../providers/http-client.ts';
import { useItemKey } from './item-key.ts';
import { fill, safeUrl } from './presentation.tsx';
import { stringOption, type InterfaceProps } from './types.ts';

/** One action of the header (Directus's `links` option): a link to a templated URL, or a manual flow run on this item. */
interface HeaderAction {
  label?: string;
  icon?: string;
  type?: 'normal' | 'primary' | 'info' | 'success' | 'warning' | 'danger';
  actionType?: 'url' | 'flow';
  url?: string;
  flow?: string;
}

interface ManualFlow {
  id: string;
  name: string;
  options: { requireConfirmation?: boolean; confirmationDescription?: string } | null;
}

/**
 * `header` (Directus's presentation header): a `title` and `subtitle` with `{{field}}` placeholders filled
 * from the item, an `icon` and `color`, `help` text shown in place or in a dialog (`helpDisplayMode`), and
 * action buttons (`links`): a URL (templated, as the links interface) or a manual flow, started with
 * `POST /flows/trigger/:id` for this item (so that route's checks apply: an active manual flow listing this
 * collection, a caller who may read the flow and the item). Flow actions wait until the item is saved.
 */
export function HeaderInterface({ field, value, options }: InterfaceProps<Record<string, unknown>>) {
  const translate = useTranslate();
  const { locale } = usePreferences();
  const { message, modal } = App.useApp();
  const key = useItemKey(field.collection);
  const [helpOpen, setHelpOpen] = useState(false);
  const [running, setRunning] = useState<number | null>(null);
  const item = value ?? {};
  const color = stringOption(options, 'color');
  const icon = stringOption(options, 'icon');
  const title = fill(resolveText(stringOption(options, 'title'), locale) ?? '', item);
  const subtitle = fill(resolveText(stringOption(options, 'subtitle'), locale) ?? '', item);
  const help = resolveText(stringOption(options, 'help'), locale);
  const actions = Array.isArray(options.links) ? (options.links as HeaderAction[]).filter((action) => action && typeof action === 'object') : [];

  const runFlow = async (index: number, flowId: string) => {
    setRunning(index);
    try {
      const flow = await apiData<ManualFlow>(`/flows/${encodeURIComponent(flowId)}`, { query: { fields: 'id,name,options' } });
      const confirmed =
        flow.options?.requireConfirmation !== true ||
        (await modal.confirm({ title: translate('flows.manual.confirmTitle', { name: flow.name }), content: flow.options.confirmationDescription, okText: translate('flows.manual.run'), cancelText: translate('shared.actions.cancel') }));
      if (!confirmed) return;
      await apiRequest(`/flows/trigger/${encodeURIComponent(flowId)}`, { method: 'POST', body: { collection: field.collection, keys: [key] } });
      void message.success(translate('flows.manual.started', { name: flow.name }));
    } catch (failure) {
      void message.error((failure as Error).message);
    } finally {
      setRunning(null);
    }
  };

  const buttons = actions.map((action, index) => {
    const label = resolveText(action.label, locale) || translate('content.links.open');
    const common = {
      type: action.type === 'primary' ? ('primary' as const) : ('default' as const),
      danger: action.type === 'danger',
      icon: action.icon ? <CollectionIcon name={action.icon} /> : action.actionType === 'flow' ? <ThunderboltOutlined /> : undefined,
      'data-testid': `header-action-${index}`,
    };
    if (action.actionType === 'flow') {
      const ready = Boolean(action.flow && key);
      return (
        <Button key={index} {...common} disabled={!ready} loading={running === index} title={key ? undefined : translate('content.header.saveFirst')} onClick={() => ready && void runFlow(index, action.flow!)}>
          {label}
        </Button>
      );
    }
    const url = safeUrl(fill(action.url ?? '', item, encodeURIComponent));
    return (
      <Button key={index} {...common} href={url ?? undefined} disabled={!url} target="_blank" rel="noopener noreferrer">
        {label}
      </Button>
    );
  });

  return (
    <div style={{ marginBottom: 24, paddingBottom: 8, borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }} data-testid={`header-${field.field}`}>
      <Flex justify="space-between" align="baseline" gap={12} wrap>
        <Typography.Title level={4} style={{ margin: 0, color, display: 'inline-flex', gap: 8, alignItems: 'center' }}>
          {icon && <CollectionIcon name={icon} color={color} />}
          {title}
        </Typography.Title>
        <Space wrap>
          {help && (
            <Button size="small" icon={<QuestionCircleOutlined />} aria-label={translate('content.header.help')} onClick={() => setHelpOpen((open) => !open)} data-testid={`header-help-${field.field}`} />
          )}
          {buttons}
        </Space>
      </Flex>
      {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
      {help && options.helpDisplayMode !== 'modal' && helpOpen && (
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginTop: 12 }} data-testid={`header-help-text-${field.field}`}>
          {help}
        </Typography.Paragraph>
      )}
      <Modal open={Boolean(help) && options.helpDisplayMode === 'modal' && helpOpen} onCancel={() => setHelpOpen(false)} footer={null} title={title || translate('content.header.help')}>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{help}</Typography.Paragraph>
      </Modal>
    </div>
  );
}

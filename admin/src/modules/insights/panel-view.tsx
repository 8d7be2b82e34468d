import { LockOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Empty, Flex, List, Progress, Spin, Typography } from 'antd';
import { Suspense, lazy, useMemo } from 'react';
import { useIsDark } from '../../app/theme.tsx';
import { useFormat } from '../../app/use-format.ts';
import { renderTemplate } from '../../content/display-template.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { barOption, pieOption, timeSeriesOption, type ChartContext } from './chart-options.ts';
import { formatMetric, formatValue, metricColor } from './panel-format.ts';
import { isError, type GroupsResult, type ItemsResult, type PanelResult, type TimeSeriesResult, type ValueResult } from './panel-results.ts';
import type { PanelOptions, PanelType } from './panel-types.ts';
import { VariableInput } from './variable-input.tsx';

const Chart = lazy(() => import('./chart.tsx'));
const MarkdownPreview = lazy(() => import('../../content/interfaces/markdown-preview.tsx'));

export interface PanelViewProps {
  type: PanelType;
  options: PanelOptions;
  result: PanelResult | undefined;
  loading: boolean;
  timeZone: string;
  testId: string;
  /** A variable panel's current value and how to change it. */
  variable?: { value: unknown; onChange(value: unknown): void };
}

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <Flex vertical align="center" justify="center" gap={6} style={{ height: '100%', minHeight: 40, textAlign: 'center' }}>
      {children}
    </Flex>
  );
}

/** What one panel shows: its number, chart, list, text or variable input, or why it has nothing. */
export function PanelView({ type, options, result, loading, timeZone, testId, variable }: PanelViewProps) {
  const { translate } = useTranslation();
  const format = useFormat();
  const dark = useIsDark();
  const schema = useSchema();
  const booleanSeries = typeof options.collection === 'string' && typeof options.groupBy === 'string' && schema.fieldsOf(options.collection).some((field) => field.field === options.groupBy && field.type === 'boolean');
  const context: ChartContext = useMemo(
    () => ({ locale: format.locale, timeZone, labels: { none: translate('insights.none'), yes: translate('shared.yes'), no: translate('shared.no') }, booleanSeries }),
    [format.locale, timeZone, translate, booleanSeries],
  );
  const chartOption = useMemo(() => {
    if (!result || isError(result)) return null;
    if (type === 'time-series' && 'buckets' in result) return timeSeriesOption(result as TimeSeriesResult, options, context);
    if (type === 'bar-chart' && 'groups' in result) return barOption(result as GroupsResult, options, context);
    if (type === 'pie-chart' && 'groups' in result) return pieOption(result as GroupsResult, options, context);
    return null;
  }, [type, result, options, context]);

  if (type === 'label') {
    return (
      <div data-testid={testId} style={{ color: typeof options.color === 'string' ? options.color : undefined, whiteSpace: typeof options.whiteSpace === 'string' ? (options.whiteSpace as 'normal') : undefined, height: '100%', overflow: 'auto' }}>
        <Suspense fallback={<Spin size="small" />}>
          <MarkdownPreview source={typeof options.text === 'string' ? options.text : ''} empty={translate('insights.emptyLabel')} />
        </Suspense>
      </div>
    );
  }
  if (isError(result)) {
    const forbidden = result.error.code === 'FORBIDDEN';
    return (
      <Centered>
        <Typography.Text type="secondary" data-testid={`${testId}-error`}>
          {forbidden ? <LockOutlined /> : <WarningOutlined />} {forbidden ? translate('insights.noAccess') : result.error.message}
        </Typography.Text>
      </Centered>
    );
  }
  if (type === 'global-variable' || type === 'relational-variable') {
    return (
      // Vertically centred, but text starts on the left like any input (a centred placeholder read as disabled).
      <Flex vertical justify="center" style={{ height: '100%', minHeight: 40 }}>
        <VariableInput type={type} options={options} result={result} value={variable?.value} onChange={(value) => variable?.onChange(value)} testId={testId} />
      </Flex>
    );
  }
  if (!result) {
    return <Centered>{loading ? <Spin data-testid={`${testId}-loading`} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('insights.noData')} />}</Centered>;
  }
  if (type === 'metric') {
    const value = (result as ValueResult).value;
    const color = metricColor(value, options.conditionalFormatting);
    return (
      <Centered>
        <span data-testid={testId} style={{ fontSize: 'clamp(22px, 3.2vw, 42px)', fontWeight: 600, lineHeight: 1.1, color: color ?? undefined, fontVariantNumeric: 'tabular-nums' }}>
          {formatMetric(value, options, format.locale)}
        </span>
      </Centered>
    );
  }
  if (type === 'meter') {
    const { value, goal } = result as ValueResult;
    const target = typeof goal === 'number' ? goal : Number(options.goal);
    const percent = value !== null && target > 0 ? (value / target) * 100 : 0;
    const half = options.size === 'half';
    return (
      <Centered>
        <Progress
          type={half ? 'dashboard' : 'circle'}
          gapDegree={half ? 180 : undefined}
          percent={Math.min(100, Math.round(percent * 10) / 10)}
          strokeColor={typeof options.color === 'string' ? options.color : undefined}
          format={() => `${formatValue(percent, format.locale, 1)} %`}
          size={110}
        />
        <Typography.Text type="secondary" data-testid={testId}>
          {formatValue(value, format.locale)} / {formatValue(target, format.locale)}
        </Typography.Text>
      </Centered>
    );
  }
  if (type === 'list') {
    const template = typeof options.displayTemplate === 'string' ? options.displayTemplate : '';
    return (
      <List
        size="small"
        data-testid={testId}
        style={{ height: '100%', overflow: 'auto' }}
        dataSource={(result as ItemsResult).items ?? []}
        locale={{ emptyText: translate('insights.noData') }}
        renderItem={(item) => <List.Item style={{ paddingInline: 0 }}>{renderTemplate(template, item)}</List.Item>}
      />
    );
  }
  if (chartOption) {
    const empty = 'groups' in result ? (result as GroupsResult).groups.length === 0 : (result as TimeSeriesResult).buckets.length === 0;
    if (empty) return <Centered><Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('insights.noData')} /></Centered>;
    return (
      <Suspense fallback={<Centered><Spin /></Centered>}>
        <Chart option={chartOption} dark={dark} testId={testId} />
      </Suspense>
    );
  }
  return <Centered><Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate('insights.noData')} /></Centered>;
}

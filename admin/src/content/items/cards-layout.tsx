import { SortAscendingOutlined, SortDescendingOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Card, Checkbox, Pagination, Select, Space, Spin, Typography, theme } from 'antd';
import { useState } from 'react';
import { useNarrow } from '../../app/layout/use-narrow.ts';
import { usePreferences } from '../../app/preferences.tsx';
import { assetUrl } from '../../app/project-settings.tsx';
import { CollectionIcon, ICON_NAMES } from '../../components/collection-icon.tsx';
import type { LayoutProps } from '../../extensions/kinds.ts';
import { renderTemplate, templateHasValues } from '../display-template.ts';
import { templateText } from '../field-text.ts';
import { fileKeyOf, titleTemplate } from './layout-fields.ts';
import { fieldLabel } from '../field-label.ts';
import { isToMany } from '../field-kinds.ts';
import { FILES_COLLECTION, relatedTarget } from '../interfaces/related.ts';
import { useSchema } from '../schema/schema-context.tsx';
import { ChoiceOption, FieldOption, LayoutOptionsButton, stringOption, TemplateOption, withOption } from './layout-options.tsx';
import { PAGE_SIZES } from './list-preset.ts';

/** Card widths by Directus's `size` option (2 small … 5 large). */
const CARD_WIDTHS: Record<number, number> = { 2: 140, 3: 180, 4: 220, 5: 280 };
const DEFAULT_SIZE = 4;
const PHONE_QUERY = '(max-width: 575.98px)';
const PHONE_CARD_WIDTH = 150;

/** Directus's `cards` layout: a grid of cards, each with an image (`imageSource`), a title and a subtitle (display templates). */
export default function CardsLayout({ collection, primaryKey, allFields, query, onQueryChange, items, total, loading, selection, onSelectionChange, options, onOptionsChange, onOpen, empty }: LayoutProps) {
  const translate = useTranslate();
  const { locale } = usePreferences();
  const { token } = theme.useToken();
  const schema = useSchema();
  const text = templateText(schema, collection);
  const fileFields = allFields.filter((field) => !isToMany(field) && relatedTarget(schema, field)?.collection === FILES_COLLECTION);
  const title = titleTemplate(options, allFields);
  const subtitle = stringOption(options, 'subtitle');
  const imageSource = stringOption(options, 'imageSource');
  const size = typeof options.size === 'number' && CARD_WIDTHS[options.size] ? options.size : DEFAULT_SIZE;
  const imageFit = options.imageFit === 'contain' ? 'contain' : 'crop';
  const icon = stringOption(options, 'icon');
  // Phones show two cards a row whatever the size.
  const phone = useNarrow(PHONE_QUERY);
  const width = phone ? Math.min(CARD_WIDTHS[size]!, PHONE_CARD_WIDTH) : CARD_WIDTHS[size]!;
  const [broken, setBroken] = useState<ReadonlySet<string>>(() => new Set());
  const set = (name: string) => (value: unknown) => onOptionsChange(withOption(options, name, value));
  const sortField = query.sort[0]?.replace(/^-/, '');
  const descending = query.sort[0]?.startsWith('-') ?? false;

  return (
    <div data-testid="cards-layout">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={translate('content.layouts.sortBy')}
          value={sortField}
          style={{ minWidth: 160 }}
          onChange={(field?: string) => onQueryChange({ page: 1, sort: field ? [`${descending ? '-' : ''}${field}`] : [] })}
          options={allFields.filter((field) => !isToMany(field)).map((field) => ({ value: field.field, label: fieldLabel(field, locale) }))}
          data-testid="cards-sort"
        />
        <Button
          icon={descending ? <SortDescendingOutlined /> : <SortAscendingOutlined />}
          disabled={!sortField}
          aria-label={translate(descending ? 'content.layouts.descending' : 'content.layouts.ascending')}
          onClick={() => sortField && onQueryChange({ page: 1, sort: [`${descending ? '' : '-'}${sortField}`] })}
          data-testid="cards-sort-direction"
        />
        <LayoutOptionsButton>
          <FieldOption label={translate('content.layouts.cards.imageSource')} option="imageSource" value={imageSource} fields={fileFields} onChange={set('imageSource')} />
          <TemplateOption label={translate('content.layouts.cards.title')} option="title" value={stringOption(options, 'title')} onChange={set('title')} />
          <TemplateOption label={translate('content.layouts.cards.subtitle')} option="subtitle" value={subtitle} onChange={set('subtitle')} />
          <ChoiceOption label={translate('content.layouts.cards.size')} option="size" value={size} onChange={set('size')} choices={[2, 3, 4, 5].map((value) => ({ value, label: translate(`content.layouts.cards.size${value}`) }))} />
          <ChoiceOption label={translate('content.layouts.cards.imageFit')} option="imageFit" value={imageFit} onChange={set('imageFit')} choices={[{ value: 'crop', label: translate('content.layouts.cards.crop') }, { value: 'contain', label: translate('content.layouts.cards.contain') }]} />
          <ChoiceOption label={translate('content.layouts.cards.icon')} option="icon" value={icon ?? ''} onChange={(value) => set('icon')(value || null)} choices={[{ value: '', label: '—' }, ...ICON_NAMES.map((name) => ({ value: name, label: name }))]} />
        </LayoutOptionsButton>
      </Space>
      <Spin spinning={loading}>
        {items.length === 0 && !loading ? (
          empty
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(min(${width}px, 100%), 1fr))`, gap: 16 }}>
            {items.map((item) => {
              const key = item[primaryKey] as string | number;
              const file = imageSource ? fileKeyOf(item[imageSource]) : null;
              const selected = selection.includes(key);
              return (
                <Card
                  key={String(key)}
                  hoverable
                  size="small"
                  onClick={() => onOpen(key)}
                  style={selected ? { borderColor: token.colorPrimary } : undefined}
                  cover={
                    <div style={{ aspectRatio: '1 / 1', background: token.colorFillQuaternary, display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' }}>
                      {file && !broken.has(file) ? (
                        <img
                          src={assetUrl(file, { width: width * 2, height: width * 2, fit: imageFit === 'crop' ? 'cover' : 'contain' })}
                          alt=""
                          loading="lazy"
                          // A file the user may not see (or gone) shows the icon instead of a broken image.
                          onError={() => setBroken((previous) => new Set([...previous, file]))}
                          style={{ width: '100%', height: '100%', objectFit: imageFit === 'crop' ? 'cover' : 'contain' }}
                        />
                      ) : (
                        <span style={{ fontSize: 40, color: token.colorTextQuaternary }}>
                          <CollectionIcon name={icon} />
                        </span>
                      )}
                    </div>
                  }
                  data-testid="card"
                >
                  <div style={{ display: 'flex', gap: 8, alignItems: 'start' }}>
                    {onSelectionChange && (
                      <Checkbox
                        checked={selected}
                        onClick={(event) => event.stopPropagation()}
                        onChange={(event) => onSelectionChange(event.target.checked ? [...selection, key] : selection.filter((entry) => entry !== key))}
                        aria-label={translate('content.layouts.select')}
                      />
                    )}
                    <div style={{ minWidth: 0 }}>
                      <Typography.Text strong ellipsis style={{ display: 'block' }} data-testid="card-title">
                        {renderTemplate(title, item, primaryKey, text)}
                      </Typography.Text>
                      {subtitle && (
                        <Typography.Text type="secondary" ellipsis style={{ display: 'block' }} data-testid="card-subtitle">
                          {templateHasValues(subtitle, item) ? renderTemplate(subtitle, item, primaryKey, text) : '\u00a0'}
                        </Typography.Text>
                      )}
                    </div>
                  </div>
                </Card>
              );
            })}
          </div>
        )}
      </Spin>
      {total > 0 && <Pagination
        style={{ marginTop: 16, justifyContent: 'end' }}
        current={query.page}
        pageSize={query.limit}
        total={total}
        showSizeChanger
        pageSizeOptions={PAGE_SIZES}
        onChange={(page, limit) => onQueryChange({ page: limit === query.limit ? page : 1, limit })}
      />}
    </div>
  );
}

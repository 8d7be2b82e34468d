import { UserOutlined } from '@ant-design/icons';
import { Avatar, Space, Tag, Typography } from 'antd';
import { assetUrl } from '../../app/project-settings.tsx';
import type { DisplayProps } from '../../extensions/kinds.ts';
import { fileName, type FileItem } from '../../files/file-info.ts';
import { FileThumbnail } from '../../files/file-thumbnail.tsx';
import { formatBytes } from '../../i18n/format.ts';
import { usePreferences } from '../../app/preferences.tsx';
import { renderTemplate, templateFields } from '../display-template.ts';
import { ManyToAnyDisplay } from '../interfaces/many-to-any-display.tsx';
import { isAnyTarget } from '../interfaces/many-to-any-rows.ts';
import { relatedTarget } from '../interfaces/related.ts';
import { stringOption } from '../interfaces/types.ts';
import { useSchema } from '../schema/schema-context.tsx';
import type { FieldInfo } from '../schema/types.ts';
import { mimeExtension } from './relative-time.ts';

type Item = Record<string, unknown>;
const EMPTY = <Typography.Text type="secondary">—</Typography.Text>;
const asItem = (value: unknown): Item | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Item) : null);

/** The fields a display of a relational field needs read from the related item, beyond its template. */
export function displayReadFields(field: FieldInfo): string[] {
  switch (field.meta?.display) {
    case 'related-values':
      return templateFields(stringOption(field.meta.display_options ?? {}, 'template'));
    case 'user':
      return ['first_name', 'last_name', 'email', 'avatar'];
    case 'file':
      return ['type', 'filesize', 'title', 'filename_download'];
    case 'image':
      return ['type', 'title', 'filename_download', 'modified_on'];
    case 'translations':
      // The junction rows whole: their language and translated fields.
      return ['*'];
    default:
      return [];
  }
}

/** `related-values`: related items by `template` (else their collection's); to-many values one tag each. */
export function RelatedValuesDisplay({ value, field, options }: DisplayProps) {
  const schema = useSchema();
  const target = relatedTarget(schema, field);
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return EMPTY;
  if (isAnyTarget(target) && Array.isArray(value)) return <ManyToAnyDisplay value={value} target={target} />;
  const own = stringOption(options, 'template');
  const primaryKey = target?.primaryKey ?? 'id';
  // The display's template reads the value as it is (a junction row for m2m, as Directus has it); the collection's, the related item.
  const label = (item: unknown) => {
    if (own) return renderTemplate(own, item, target?.junction?.primaryKey ?? primaryKey);
    const inner = target?.junction && asItem(item) ? (asItem(item)![target.junction.field] ?? item) : item;
    return renderTemplate(target?.template, inner, primaryKey);
  };
  if (!Array.isArray(value)) return <>{label(value)}</>;
  return (
    <Space size={4} wrap>
      {value.map((item, index) => (
        <Tag key={index} bordered={false}>
          {label(item)}
        </Tag>
      ))}
    </Space>
  );
}

/** `user`: the avatar and the name (`display`: `avatar`, `name` or `both`). */
export function UserDisplay({ value, options }: DisplayProps) {
  const user = asItem(value);
  if (!user) return value ? <>{String(value)}</> : EMPTY;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || String(user.email ?? user.id ?? '');
  const display = stringOption(options, 'display') ?? 'both';
  const avatar = typeof user.avatar === 'string' ? assetUrl(user.avatar, { width: 64, height: 64, fit: 'cover' }) : undefined;
  return (
    <Space size={6} data-testid="display-user">
      {display !== 'name' && <Avatar size="small" src={avatar} icon={<UserOutlined />} shape={options.circle === false ? 'square' : 'circle'} />}
      {display !== 'avatar' && <span>{name}</span>}
    </Space>
  );
}

/** `file`: the file's type (as an extension) and name, with its size. */
export function FileDisplay({ value }: DisplayProps) {
  const { locale } = usePreferences();
  const file = asItem(value) as FileItem | null;
  if (!file) return value ? <>{String(value)}</> : EMPTY;
  return (
    <Space size={6} data-testid="display-file">
      {file.type && <Tag bordered={false}>{mimeExtension(file.type)}</Tag>}
      <span>{fileName(file)}</span>
      {file.filesize ? <Typography.Text type="secondary">{formatBytes(file.filesize, locale)}</Typography.Text> : null}
    </Space>
  );
}

/** `image`: a thumbnail of the image. */
export function ImageDisplay({ value }: DisplayProps) {
  const file = asItem(value) as FileItem | null;
  if (!file) return value ? <>{String(value)}</> : EMPTY;
  return <FileThumbnail file={file} size={32} />;
}

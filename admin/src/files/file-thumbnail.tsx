import { FileOutlined, FilePdfOutlined, FileTextOutlined, PlayCircleOutlined, SoundOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useState } from 'react';
import { assetUrl } from '../app/project-settings.tsx';
import { fileName, isImage, type FileItem } from './file-info.ts';

function TypeIcon({ type, size }: { type: string | null; size: number }) {
  const style = { fontSize: size * 0.45 };
  if (type === 'application/pdf') return <FilePdfOutlined style={style} />;
  if (type?.startsWith('video/')) return <PlayCircleOutlined style={style} />;
  if (type?.startsWith('audio/')) return <SoundOutlined style={style} />;
  if (type?.startsWith('text/')) return <FileTextOutlined style={style} />;
  return <FileOutlined style={style} />;
}

/**
 * A square preview: images through `/assets/:id` resized on the server (twice the size, for sharp
 * screens); other files an icon for their type. When the project allows no free transformations
 * (`storage_asset_transform` presets or none) the resized request is refused, so the original is shown
 * scaled instead. `fill` stretches it over its container (a square box).
 */
export function FileThumbnail({ file, size = 48, fill = false }: { file: FileItem; size?: number; fill?: boolean }) {
  const { token } = theme.useToken();
  const [original, setOriginal] = useState(false);
  const box = { width: fill ? '100%' : size, height: fill ? '100%' : size, borderRadius: token.borderRadius, flex: 'none' as const };
  if (!isImage(file)) {
    return (
      <span style={{ ...box, display: 'inline-flex', alignItems: 'center', justifyContent: 'center', background: token.colorFillTertiary, color: token.colorTextSecondary }} data-testid="file-icon">
        <TypeIcon type={file.type} size={size} />
      </span>
    );
  }
  const src = original ? assetUrl(file.id, {}, file.modified_on) : assetUrl(file.id, { width: size * 2, height: size * 2, fit: 'cover' }, file.modified_on);
  return <img src={src} alt={fileName(file)} width={size} height={size} loading="lazy" onError={() => setOriginal(true)} style={{ ...box, objectFit: 'cover', background: token.colorFillTertiary, display: 'block' }} data-testid="file-thumbnail" />;
}

import { AimOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { theme } from 'antd';
import type { MouseEvent } from 'react';
import { assetUrl } from '../app/project-settings.tsx';
import { fileName, type FileItem } from './file-info.ts';

/** A focal point in pixels of the upright image (the server's terms), or null for none. */
export type FocalPoint = { x: number; y: number } | null;

/** The pixel a click on the shown picture stands for, held inside the image. */
export function pointAt(click: { x: number; y: number }, shown: { width: number; height: number }, size: { width: number; height: number }): { x: number; y: number } {
  const x = Math.round((click.x / shown.width) * size.width);
  const y = Math.round((click.y / shown.height) * size.height);
  return { x: Math.min(size.width, Math.max(0, x)), y: Math.min(size.height, Math.max(0, y)) };
}

/**
 * The file's picture with its focal point marked; when `onChange` is given a click sets the point there
 * (the crops of `/assets` keep it in view). Browsers draw the picture upright by its EXIF orientation, as
 * the server measures it.
 */
export function FocalPointPicker({ file, value, onChange }: { file: FileItem; value: FocalPoint; onChange?: (point: FocalPoint) => void }) {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const size = file.width && file.height ? { width: file.width, height: file.height } : null;
  const pick = (event: MouseEvent<HTMLImageElement>) => {
    if (!onChange || !size) return;
    const box = event.currentTarget.getBoundingClientRect();
    onChange(pointAt({ x: event.clientX - box.left, y: event.clientY - box.top }, box, size));
  };
  return (
    <div style={{ position: 'relative', display: 'inline-block', maxWidth: '100%', lineHeight: 0 }} data-testid="focal-point-picker">
      <img
        src={assetUrl(file.id, {}, file.modified_on)}
        alt={fileName(file)}
        onClick={pick}
        style={{ maxWidth: '100%', maxHeight: 480, cursor: onChange && size ? 'crosshair' : undefined, borderRadius: token.borderRadius, background: token.colorFillTertiary }}
        title={onChange && size ? translate('files.focal.help') : undefined}
        data-testid="file-preview-image"
      />
      {value && size && (
        <AimOutlined
          aria-label={translate('files.focal.label')}
          data-testid="focal-point-marker"
          style={{ position: 'absolute', left: `${(value.x / size.width) * 100}%`, top: `${(value.y / size.height) * 100}%`, transform: 'translate(-50%, -50%)', fontSize: 28, color: token.colorWhite, filter: 'drop-shadow(0 0 2px rgba(0,0,0,.9))', pointerEvents: 'none' }}
        />
      )}
    </div>
  );
}

import { AimOutlined, ColumnWidthOutlined, ColumnHeightOutlined, RotateLeftOutlined, RotateRightOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { App, Button, Flex, Modal, Segmented, Spin, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import ReactCrop, { centerCrop, makeAspectCrop, type PercentCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { assetUrl } from '../app/project-settings.tsx';
import { apiData, type ApiHttpError } from '../providers/http-client.ts';
import { fileName, type FileItem } from './file-info.ts';
import { drawOriented, focalInResult, mirror, orientedSize, pixelCrop, turn, type Orientation } from './image-geometry.ts';

/** Image types the server's editor writes back (POST /files/:id/edit). */
export const EDITABLE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/tiff'];

/** A choice of crop shape: free, or width ÷ height. */
interface Ratio {
  key: string;
  label: string;
  value: number | null;
}

const PRESET_RATIOS: Ratio[] = [
  { key: '1:1', label: '1:1', value: 1 },
  { key: '4:3', label: '4:3', value: 4 / 3 },
  { key: '16:9', label: '16:9', value: 16 / 9 },
];

/** The project's own ratios (settings.custom_aspect_ratios); none when the caller may not read them. */
function useCustomRatios(): Ratio[] {
  const [ratios, setRatios] = useState<Ratio[]>([]);
  useEffect(() => {
    apiData<{ custom_aspect_ratios?: Array<{ text?: string; value?: number }> | null }>('/settings', { query: { fields: ['custom_aspect_ratios'] } })
      .then((settings) =>
        setRatios(
          (settings?.custom_aspect_ratios ?? [])
            .filter((ratio) => typeof ratio.value === 'number' && ratio.value > 0 && ratio.text)
            .map((ratio, index) => ({ key: `custom-${index}`, label: ratio.text!, value: ratio.value! })),
        ),
      )
      .catch(() => setRatios([]));
  }, []);
  return ratios;
}

const UPRIGHT: Orientation = { rotate: 0, flip: false, flop: false };

/**
 * The files module's image editor (SPEC.md §9): crop free or to 1:1, 4:3, 16:9 and the project's custom
 * ratios, quarter turns, mirrors and a focal point. The picture is oriented on a canvas exactly as the
 * server will do it, the crop is drawn over that, and saving sends the steps to POST /files/:id/edit, which
 * writes the new content under the same file id.
 */
export function ImageEditor({ file, open, onClose, onSaved }: { file: FileItem; open: boolean; onClose(): void; onSaved(file: FileItem): void }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [orientation, setOrientation] = useState<Orientation>(UPRIGHT);
  const [ratio, setRatio] = useState<string>('free');
  const [crop, setCrop] = useState<PercentCrop | undefined>();
  const [focalMode, setFocalMode] = useState(false);
  const [focal, setFocal] = useState<{ x: number; y: number } | null>(null);
  const [saving, setSaving] = useState(false);
  const custom = useCustomRatios();
  const ratios = useMemo(() => [...PRESET_RATIOS, ...custom], [custom]);
  const aspect = ratios.find((choice) => choice.key === ratio)?.value ?? undefined;

  useEffect(() => {
    if (!open) return;
    setOrientation(UPRIGHT);
    setCrop(undefined);
    setRatio('free');
    setFocal(null);
    setFocalMode(false);
    const element = new Image();
    // The stored bytes, not a transformed copy (the project's transform policy may forbid transforms).
    // `v` makes each opening a new URL: the browser's in-page image cache reuses a picture loaded at the same
    // URL without revalidating it (whatever its Cache-Control), and this editor may just have replaced it.
    element.src = assetUrl(file.id, { v: Date.now() });
    element.onload = () => setImage(element);
    element.onerror = () => message.error(translate('content.files.editor.loadFailed'));
    return () => setImage(null);
  }, [open, file.id, message, translate]);

  const size = image ? orientedSize({ width: image.naturalWidth, height: image.naturalHeight }, orientation) : null;

  useEffect(() => {
    if (image && canvas.current) drawOriented(canvas.current, image, orientation);
  }, [image, orientation, focalMode]);

  /** A centred crop of the chosen shape, as large as the picture allows. */
  const shapeCrop = (choice: string, within = size) => {
    const value = ratios.find((item) => item.key === choice)?.value;
    if (!within || !value) return undefined;
    return centerCrop(makeAspectCrop({ unit: '%', width: 100 }, value, within.width, within.height), within.width, within.height);
  };

  const reorient = (next: Orientation) => {
    setOrientation(next);
    // A crop drawn on the old orientation means nothing on the new one; the shape stays.
    setCrop(image ? shapeCrop(ratio, orientedSize({ width: image.naturalWidth, height: image.naturalHeight }, next)) : undefined);
    setFocal(null);
  };

  const pickFocal = (event: MouseEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setFocal({ x: ((event.clientX - box.left) / box.width) * 100, y: ((event.clientY - box.top) / box.height) * 100 });
  };

  const save = async () => {
    if (!size) return;
    const cropped = pixelCrop(crop ?? null, size);
    const point = focal ? focalInResult(focal, size, cropped) : null;
    setSaving(true);
    try {
      const saved = await apiData<FileItem>(`/files/${encodeURIComponent(file.id)}/edit`, {
        method: 'POST',
        body: { ...orientation, crop: cropped, ...(point ? { focal_point_x: point.x, focal_point_y: point.y } : {}) },
      });
      message.success(translate('content.files.editor.saved', { name: fileName(file) }));
      onSaved(saved);
    } catch (failure) {
      message.error((failure as ApiHttpError).message);
    } finally {
      setSaving(false);
    }
  };

  const tool = (key: string, icon: React.ReactNode, onClick: () => void, active = false) => (
    <Tooltip title={translate(`content.files.editor.${key}`)}>
      <Button icon={icon} onClick={onClick} type={active ? 'primary' : 'default'} aria-label={translate(`content.files.editor.${key}`)} data-testid={`image-${key}`} />
    </Tooltip>
  );

  const canvasStyle = { display: 'block', maxWidth: '100%', maxHeight: '60vh' } as const;
  return (
    <Modal
      open={open}
      width={880}
      title={translate('content.files.editor.title', { name: fileName(file) })}
      onCancel={onClose}
      onOk={save}
      okText={translate('buttons.save')}
      okButtonProps={{ disabled: !image, 'data-testid': 'image-save' } as React.ComponentProps<typeof Button>}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Segmented
          value={ratio}
          onChange={(value) => {
            setRatio(String(value));
            setCrop(shapeCrop(String(value)));
            setFocalMode(false);
          }}
          options={[{ value: 'free', label: translate('content.files.editor.free') }, ...ratios.map((choice) => ({ value: choice.key, label: choice.label }))]}
          data-testid="image-ratio"
        />
        {tool('rotateLeft', <RotateLeftOutlined />, () => reorient(turn(orientation, -1)))}
        {tool('rotateRight', <RotateRightOutlined />, () => reorient(turn(orientation, 1)))}
        {tool('flipHorizontal', <ColumnWidthOutlined />, () => reorient(mirror(orientation, 'horizontal')))}
        {tool('flipVertical', <ColumnHeightOutlined />, () => reorient(mirror(orientation, 'vertical')))}
        {tool('focalPoint', <AimOutlined />, () => setFocalMode(!focalMode), focalMode)}
        {tool('reset', <UndoOutlined />, () => { reorient(UPRIGHT); setRatio('free'); setCrop(undefined); })}
        <Typography.Text type="secondary" data-testid="image-size">
          {size ? `${pixelCrop(crop ?? null, size)?.width ?? size.width}×${pixelCrop(crop ?? null, size)?.height ?? size.height}` : ''}
        </Typography.Text>
      </Flex>
      <Flex justify="center" align="flex-start" style={{ background: 'repeating-conic-gradient(#0000000d 0% 25%, transparent 0% 50%) 50% / 16px 16px', minHeight: 200 }}>
        {!image ? (
          <Spin style={{ margin: 80 }} />
        ) : focalMode ? (
          <div style={{ position: 'relative', lineHeight: 0 }}>
            <canvas ref={canvas} style={{ ...canvasStyle, cursor: 'crosshair' }} onClick={pickFocal} data-testid="image-canvas" />
            {focal && <FocalMarker point={focal} />}
          </div>
        ) : (
          <div style={{ position: 'relative', lineHeight: 0 }}>
            <ReactCrop crop={crop} aspect={aspect} onChange={(_, percent) => setCrop(percent)} ruleOfThirds keepSelection={aspect !== undefined}>
              <canvas ref={canvas} style={canvasStyle} data-testid="image-canvas" />
            </ReactCrop>
            {focal && <FocalMarker point={focal} />}
          </div>
        )}
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {translate(focalMode ? 'content.files.editor.focalHelp' : 'content.files.editor.cropHelp')}
      </Typography.Paragraph>
    </Modal>
  );
}

function FocalMarker({ point }: { point: { x: number; y: number } }) {
  return (
    <span
      data-testid="image-focal-marker"
      style={{ position: 'absolute', left: `${point.x}%`, top: `${point.y}%`, width: 18, height: 18, marginLeft: -9, marginTop: -9, borderRadius: '50%', border: '2px solid #fff', boxShadow: '0 0 0 2px #1677ff', pointerEvents: 'none' }}
    />
  );
}

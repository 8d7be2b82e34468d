import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Flex, Progress, theme, Typography } from 'antd';
import { useCallback, useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { ApiHttpError } from '../providers/http-client.ts';
import type { FileItem } from './file-info.ts';
import { uploadWithProgress } from './upload.ts';

/** One upload in flight or just finished. */
interface UploadState {
  key: number;
  name: string;
  /** 0–100. */
  percent: number;
  status: 'active' | 'success' | 'exception';
  error?: string;
}

/**
 * Uploads files one request each into `folder`, keeping a progress line per file. `upload` starts them
 * (from a button or a drop); `uploads` is what the progress list shows.
 */
export function useUploads(folder: string | null, onUploaded: (file: FileItem) => void) {
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const next = useRef(0);
  const update = (key: number, change: Partial<UploadState>) => setUploads((list) => list.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));
  const upload = useCallback(
    async (files: File[]) => {
      const started = files.map((file) => ({ key: next.current++, name: file.name, percent: 0, status: 'active' as const }));
      setUploads((list) => [...list.filter((entry) => entry.status === 'active'), ...started]);
      await Promise.all(
        files.map(async (file, index) => {
          const { key } = started[index]!;
          try {
            // The last percent waits for the server's answer (the file is stored and read back by then).
            const created = await uploadWithProgress(file, folder, (sent) => update(key, { percent: Math.min(99, Math.floor(sent * 100)) }));
            update(key, { percent: 100, status: 'success' });
            onUploaded(created);
          } catch (failure) {
            update(key, { status: 'exception', error: (failure as ApiHttpError).message });
          }
        }),
      );
    },
    [folder, onUploaded],
  );
  return { uploads, upload };
}

/** The progress of each upload: a line with the file's name, its percentage, and the error of a failed one. */
export function UploadProgressList({ uploads }: { uploads: UploadState[] }) {
  if (uploads.length === 0) return null;
  return (
    <div style={{ marginBottom: 12 }} data-testid="upload-progress">
      {uploads.map((entry) => (
        <div key={entry.key} data-testid={`upload-progress-${entry.name}`} data-percent={entry.percent} data-status={entry.status}>
          <Flex justify="space-between" gap={8}>
            <Typography.Text ellipsis style={{ fontSize: 12 }}>{entry.name}</Typography.Text>
            {entry.error && <Typography.Text type="danger" style={{ fontSize: 12 }}>{entry.error}</Typography.Text>}
          </Flex>
          <Progress percent={entry.percent} status={entry.status} size="small" />
        </div>
      ))}
    </div>
  );
}

/** A region that takes files dropped from the desktop and hands them to `onFiles`; shows a hint while dragging over it. */
export function UploadDropZone({ onFiles, disabled, children }: { onFiles(files: File[]): void; disabled?: boolean; children: ReactNode }) {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const [active, setActive] = useState(false);
  const depth = useRef(0);
  const carriesFiles = (event: DragEvent) => !disabled && event.dataTransfer.types.includes('Files');
  return (
    <div
      style={{ position: 'relative', minHeight: 200 }}
      data-testid="upload-drop-zone"
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        depth.current++;
        setActive(true);
      }}
      onDragLeave={(event) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setActive(false);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setActive(false);
        const files = [...event.dataTransfer.files];
        if (files.length > 0) onFiles(files);
      }}
    >
      {children}
      {active && (
        <Flex vertical align="center" justify="center" gap={8} style={{ position: 'absolute', inset: 0, background: token.colorBgMask, border: `2px dashed ${token.colorPrimary}`, borderRadius: token.borderRadiusLG, color: token.colorWhite, pointerEvents: 'none', zIndex: 2 }}>
          <CloudUploadOutlined style={{ fontSize: 40 }} />
          <Typography.Text strong style={{ color: token.colorWhite }}>{translate('files.dropToUpload')}</Typography.Text>
        </Flex>
      )}
    </div>
  );
}

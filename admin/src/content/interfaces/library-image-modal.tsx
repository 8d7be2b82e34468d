import { useTranslate } from '@refinedev/core';
import { App, Modal } from 'antd';
import { FileBrowser } from '../../files/file-browser.tsx';
import { isImage, type FileItem } from '../../files/file-info.ts';

/** The address an editor stores for a library image: `/assets/<id>`, with `?access_token=` when the field names an image token. */
export function libraryImageSrc(fileId: string, imageToken?: string): string {
  const src = `/assets/${encodeURIComponent(fileId)}`;
  return imageToken ? `${src}?access_token=${encodeURIComponent(imageToken)}` : src;
}

/** The file library in a modal, for an editor to pick an image from (or upload one into `folder`). */
export function LibraryImageModal({ open, folder, onPick, onClose }: { open: boolean; folder?: string; onPick: (file: FileItem) => void; onClose: () => void }) {
  const translate = useTranslate();
  const { message } = App.useApp();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={translate('content.files.library')} width={800} destroyOnHidden>
      <FileBrowser
        pageSize={12}
        folder={folder ?? null}
        onPick={(file) => {
          if (!isImage(file)) return void message.warning(translate('content.editors.notAnImage'));
          onPick(file);
        }}
      />
    </Modal>
  );
}

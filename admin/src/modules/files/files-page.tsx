import { useTranslate } from '@refinedev/core';
import { Card } from 'antd';
import { FileBrowser } from '../../files/file-browser.tsx';
import { PageHeader } from '../shared/page-header.tsx';

/** `/files`: the file library with upload, folders and delete. */
export default function FilesPage() {
  const translate = useTranslate();
  return (
    <>
      <PageHeader title={translate('files.title')} subtitle={translate('files.subtitle')} testId="files-title" />
      <Card size="small">
        <FileBrowser />
      </Card>
    </>
  );
}

import { PictureOutlined } from '@ant-design/icons';
import { lazy } from 'react';
import { Route } from 'react-router';
import type { AdminModule } from '../../app/module.ts';
import { withShared } from '../shared/messages.ts';
import { filesMessages } from './messages.ts';

const FilesPage = lazy(() => import('./files-page.tsx'));
const FilePage = lazy(() => import('./file-page.tsx'));

/** The file library and each file's page. */
export const filesModule: AdminModule = {
  name: 'files',
  resources: [{ name: 'files', list: '/files', show: '/files/:id', meta: { label: 'files.menu', icon: <PictureOutlined /> } }],
  routes: (
    <>
      <Route path="/files" element={<FilesPage />} />
      <Route path="/files/:id" element={<FilePage />} />
    </>
  ),
  messages: withShared(filesMessages),
};

import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { InterfaceProps } from '../types.ts';

const BlockEditor = lazy(() => import('./block-editor.tsx'));

/** Block editor (`input-block-editor`): Editor.js loads on first use (issue 33: the first screen stays light). */
export function BlockEditorInterface(props: InterfaceProps<unknown>) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} title={false} />}>
      <BlockEditor {...props} />
    </Suspense>
  );
}

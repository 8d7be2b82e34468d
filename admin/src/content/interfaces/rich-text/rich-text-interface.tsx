import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { InterfaceProps } from '../types.ts';

const RichTextEditor = lazy(() => import('./rich-text-editor.tsx'));

/** Rich text (`input-rich-text-html`): the editor loads on first use (issue 33: the first screen stays light). */
export function RichTextInterface(props: InterfaceProps<string>) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} title={false} />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}

import { Skeleton } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';
import type { InterfaceProps } from './types.ts';

/** What a heavy editor's field shows until its editor is ready. */
export function EditorLoading() {
  return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
}

/**
 * An interface whose editor is its own chunk, fetched the first time a field of that kind is shown
 * (issue 33: the heavy editors stay out of the first screen's JavaScript).
 */
export function lazyInterface<T>(load: () => Promise<{ default: ComponentType<InterfaceProps<T>> }>): ComponentType<InterfaceProps<T>> {
  const Editor = lazy(load);
  return function LazyInterface(props: InterfaceProps<T>) {
    return (
      <Suspense fallback={<EditorLoading />}>
        <Editor {...props} />
      </Suspense>
    );
  };
}

import { useEffect, useState } from 'react';

/** Below antd's `lg` breakpoint (992 px) the menu is a drawer: phones and tablets in portrait. */
export const NARROW_QUERY = '(max-width: 991.98px)';

/** Whether the window is narrow now; read synchronously so the first frame already has the right frame. */
export function useNarrow(query = NARROW_QUERY): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setNarrow(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return narrow;
}

import { useEffect, useState } from 'react';
import { loadPermissions } from './access-control-provider.ts';
import type { PermissionIndex } from './permissions.ts';

/** The caller's permissions (null while loading), for screens that decide field by field. */
export function usePermissionIndex(): PermissionIndex | null {
  const [index, setIndex] = useState<PermissionIndex | null>(null);
  useEffect(() => {
    let live = true;
    void loadPermissions().then((loaded) => live && setIndex(loaded), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return index;
}

import { theme } from 'antd';
import { useState } from 'react';
import { assetUrl, brandColor, useProject } from '../project-settings.tsx';

/**
 * The project's logo (or its initial on the brand colour) and name. The logo is a file, which a visitor
 * who is not signed in may not be allowed to read: then the initial stands in for it.
 */
export function Brand({ collapsed = false, size = 32 }: { collapsed?: boolean; size?: number }) {
  const { project } = useProject();
  const { token } = theme.useToken();
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  const name = project.project_name || 'Tessera';
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
      {project.project_logo && failedLogo !== project.project_logo ? (
        <img src={assetUrl(project.project_logo, { height: size * 2 })} alt="" onError={() => setFailedLogo(project.project_logo)} style={{ height: size, width: size, objectFit: 'contain', borderRadius: 6 }} data-testid="brand-logo" />
      ) : (
        <span
          aria-hidden
          style={{ width: size, height: size, borderRadius: 8, background: brandColor(project.project_color), color: '#fff', display: 'grid', placeItems: 'center', lineHeight: 1, fontWeight: 700, fontSize: size * 0.5, flex: 'none' }}
        >
          {name.slice(0, 1).toUpperCase()}
        </span>
      )}
      {!collapsed && (
        <span style={{ fontWeight: 600, fontSize: 16, color: token.colorText, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span>
      )}
    </div>
  );
}

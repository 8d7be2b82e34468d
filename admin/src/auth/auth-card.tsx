import { Card, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { Brand } from '../app/layout/brand.tsx';
import { assetUrl, brandColor, useProject } from '../app/project-settings.tsx';

/** The card every signed-out page shows: brand band, logo and name, a title, the content, the public note. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { project } = useProject();
  const { token } = theme.useToken();
  const color = brandColor(project.project_color);
  // settings.public_background covers the page; without it, a wash of the brand colour.
  const background = project.public_background
    ? `center / cover no-repeat url("${assetUrl(project.public_background)}"), ${token.colorBgLayout}`
    : `linear-gradient(160deg, ${color}22 0%, ${token.colorBgLayout} 45%)`;
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24, background }} data-testid="auth-page">
      <div style={{ width: '100%', maxWidth: 420 }}>
        <Card style={{ borderTop: `4px solid ${color}`, boxShadow: '0 8px 28px rgba(0,0,0,0.08)' }} styles={{ body: { padding: 32 } }}>
          <div style={{ marginBottom: 24 }}>
            {project.public_foreground ? (
              <img src={assetUrl(project.public_foreground)} alt={project.project_name ?? ''} style={{ maxHeight: 64, maxWidth: '100%', objectFit: 'contain' }} data-testid="auth-foreground" />
            ) : (
              <Brand size={40} />
            )}
          </div>
          <Typography.Title level={3} style={{ marginTop: 0, marginBottom: subtitle ? 4 : 20 }}>
            {title}
          </Typography.Title>
          {subtitle && (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 20 }}>
              {subtitle}
            </Typography.Paragraph>
          )}
          {children}
        </Card>
        {project.public_note && (
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginTop: 16, whiteSpace: 'pre-line' }} data-testid="public-note">
            {project.public_note}
          </Typography.Paragraph>
        )}
      </div>
    </div>
  );
}

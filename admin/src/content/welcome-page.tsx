import { DatabaseOutlined } from '@ant-design/icons';
import { useCan, useGetIdentity, useTranslate } from '@refinedev/core';
import { Button, Empty, Spin, Typography } from 'antd';
import { Navigate, useNavigate } from 'react-router';
import { useProject } from '../app/project-settings.tsx';
import { lastPageOf } from '../app/shell/last-page.ts';
import { restorablePage } from '../app/shell/shell-rules.ts';
import type { Identity } from '../providers/auth-provider.ts';
import { usePreferences } from '../app/preferences.tsx';
import { buildNavigation, firstCollection } from './navigation.ts';
import { useSchema } from './schema/schema-context.tsx';

/**
 * `/admin/`: reopens the user's last page (users.last_page), else the first collection of the menu, or says
 * there is nothing to see yet: to someone who may create collections, where to start; to anyone else, whom
 * to ask. Deciding here, once both the identity and the schema are known, means the two never race.
 */
export default function WelcomePage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const schema = useSchema();
  const { locale } = usePreferences();
  const { project } = useProject();
  const { data: canModel } = useCan({ resource: 'collections', action: 'create', params: { resource: { name: 'collections', meta: { collection: 'tessera_collections' } } as never } });
  const { data: identity, isLoading: identityLoading } = useGetIdentity<Identity>();
  if (schema.loading || identityLoading) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  const last = restorablePage(lastPageOf(identity));
  if (last) return <Navigate to={last} replace />;
  const first = firstCollection(buildNavigation(schema.collections, locale));
  if (first) return <Navigate to={`/content/${first}`} replace />;
  return (
    <Empty
      style={{ marginTop: '15vh' }}
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <Typography.Title level={3}>{translate('app.welcome.title', { project: project.project_name || 'Tessera' })}</Typography.Title>
          <Typography.Paragraph type="secondary">{canModel?.can ? translate('app.welcome.emptyAdmin') : translate('app.welcome.empty')}</Typography.Paragraph>
        </>
      }
    >
      {canModel?.can && (
        <Button type="primary" icon={<DatabaseOutlined />} onClick={() => navigate('/data-model')} data-testid="welcome-data-model">
          {translate('app.welcome.openDataModel')}
        </Button>
      )}
    </Empty>
  );
}

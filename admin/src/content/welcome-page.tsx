import { useTranslate } from '@refinedev/core';
import { Empty, Spin } from 'antd';
import { Navigate } from 'react-router';
import { useProject } from '../app/project-settings.tsx';
import { usePreferences } from '../app/preferences.tsx';
import { buildNavigation, firstCollection } from './navigation.ts';
import { useSchema } from './schema/schema-context.tsx';

/** `/admin/`: opens the first collection of the menu, or says there is nothing to see yet. */
export default function WelcomePage() {
  const translate = useTranslate();
  const schema = useSchema();
  const { locale } = usePreferences();
  const { project } = useProject();
  if (schema.loading) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  const first = firstCollection(buildNavigation(schema.collections, locale));
  if (first) return <Navigate to={`/content/${first}`} replace />;
  return (
    <Empty style={{ marginTop: '15vh' }} description={<><h2>{translate('app.welcome.title', { project: project.project_name || 'Tessera' })}</h2><p>{translate('app.welcome.empty')}</p></>} />
  );
}

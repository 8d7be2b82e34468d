import { useTranslate } from '@refinedev/core';
import { Button, Result } from 'antd';
import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useProject } from '../project-settings.tsx';
import { fillReportUrl, isSafeLink } from './shell-rules.ts';
import { useShellSettings } from './shell-settings.tsx';

/** What a page that crashed shows: the message, a reload button and, when set, the project's error report link. */
export function ErrorScreen({ error }: { error: Error }) {
  const translate = useTranslate();
  const { settings } = useShellSettings();
  const { project } = useProject();
  const location = useLocation();
  const template = settings.report_error_url;
  const report = template && isSafeLink(template) ? fillReportUrl(template, { error: `${error.name}: ${error.message}`, route: location.pathname, project: project.project_name ?? '' }) : null;
  return (
    <Result
      status="error"
      title={translate('app.error.title')}
      subTitle={error.message}
      data-testid="error-screen"
      extra={[
        <Button key="reload" type="primary" onClick={() => window.location.reload()}>
          {translate('app.error.reload')}
        </Button>,
        report && (
          <Button key="report" href={report} target="_blank" rel="noreferrer" data-testid="report-error">
            {translate('app.error.report')}
          </Button>
        ),
      ]}
    />
  );
}

interface BoundaryState {
  error: Error | null;
}

/** Catches a crash of the page below it (reset when the route changes: `key` it by the path). */
export class PageErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    return this.state.error ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}

import { BugOutlined, BulbOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useLocation } from 'react-router';
import { useProject } from '../project-settings.tsx';
import { fillReportUrl, isSafeLink } from './shell-rules.ts';
import { useShellSettings } from './shell-settings.tsx';

/** The header's help menu: "Report a bug" and "Request a feature" when the project set their URLs. */
export function HelpMenu() {
  const translate = useTranslate();
  const { settings } = useShellSettings();
  const { project } = useProject();
  const location = useLocation();
  const values = { route: location.pathname, project: project.project_name ?? '' };
  const links = [
    { key: 'bug', template: settings.report_bug_url, icon: <BugOutlined />, label: translate('app.help.reportBug') },
    { key: 'feature', template: settings.report_feature_url, icon: <BulbOutlined />, label: translate('app.help.requestFeature') },
  ].filter((link) => link.template && isSafeLink(link.template));
  if (links.length === 0) return null;
  const items: MenuProps['items'] = links.map((link) => ({
    key: link.key,
    icon: link.icon,
    label: (
      <a href={fillReportUrl(link.template!, values)} target="_blank" rel="noreferrer" data-testid={`help-${link.key}`}>
        {link.label}
      </a>
    ),
  }));
  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <Button type="text" icon={<QuestionCircleOutlined />} aria-label={translate('app.help.menu')} data-testid="help-menu" />
    </Dropdown>
  );
}

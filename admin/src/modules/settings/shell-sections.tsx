import { ArrowDownOutlined, ArrowUpOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Col, Form, Input, Row, Switch, Typography } from 'antd';
import { useShellSettings } from '../../app/shell/shell-settings.tsx';
import { JsonEditor } from '../../components/json-editor.tsx';

/**
 * settings.module_bar: which modules the menu shows, in which order, and custom links (Directus's
 * shape). Modules can be switched off and moved, not removed; links can also be removed.
 */
export function ModuleBarEditor() {
  const { translate } = useTranslation();
  const form = Form.useFormInstance();
  const { modules } = useShellSettings();
  return (
    <Form.List name="module_bar">
      {(entries, { add, remove, move }) => (
        <>
          {entries.map((entry, position) => {
            const value = form.getFieldValue(['module_bar', entry.name]) as { type?: string; id?: string } | undefined;
            const isLink = value?.type === 'link';
            return (
              <Row key={entry.key} gutter={8} align="top" style={{ marginBottom: 8 }} data-testid={`module-bar-${position}`}>
                <Col flex="none">
                  <Form.Item name={[entry.name, 'enabled']} valuePropName="checked" noStyle>
                    <Switch size="small" aria-label={translate('settings.moduleBar.enabled')} data-testid={`module-bar-${position}-enabled`} />
                  </Form.Item>
                </Col>
                <Col flex="auto">
                  {isLink ? (
                    <Row gutter={8}>
                      <Col xs={24} md={10}>
                        <Form.Item name={[entry.name, 'name']} style={{ marginBottom: 0 }}>
                          <Input placeholder={translate('settings.moduleBar.linkName')} data-testid={`module-bar-${position}-name`} />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={14}>
                        <Form.Item name={[entry.name, 'url']} style={{ marginBottom: 0 }}>
                          <Input placeholder="https://example.com" data-testid={`module-bar-${position}-url`} />
                        </Form.Item>
                      </Col>
                    </Row>
                  ) : (
                    <Typography.Text>{translate(modules.find((module) => module.id === value?.id)?.label ?? '', value?.id ?? '')}</Typography.Text>
                  )}
                </Col>
                <Col flex="none">
                  <Button type="text" icon={<ArrowUpOutlined />} disabled={position === 0} onClick={() => move(position, position - 1)} aria-label={translate('settings.moduleBar.up')} data-testid={`module-bar-${position}-up`} />
                  <Button type="text" icon={<ArrowDownOutlined />} disabled={position === entries.length - 1} onClick={() => move(position, position + 1)} aria-label={translate('settings.moduleBar.down')} />
                  {isLink && <Button type="text" danger icon={<MinusCircleOutlined />} onClick={() => remove(entry.name)} aria-label={translate('shared.actions.remove')} />}
                </Col>
              </Row>
            );
          })}
          <Button icon={<PlusOutlined />} onClick={() => add({ type: 'link', id: `link-${Date.now().toString(36)}`, name: '', url: '', enabled: true })} data-testid="module-bar-add-link">
            {translate('settings.moduleBar.addLink')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

/** Report links and theme overrides (project-wide; a user's own overrides go on top). */
export function HelpAndThemeFields() {
  const { translate } = useTranslation();
  return (
    <Row gutter={16}>
      {(['report_bug_url', 'report_feature_url', 'report_error_url'] as const).map((name) => (
        <Col xs={24} md={8} key={name}>
          <Form.Item name={name} label={translate(`settings.help.${name}`)}>
            <Input placeholder="https://…" data-testid={`settings-${name}`} />
          </Form.Item>
        </Col>
      ))}
      <Col xs={24}>
        <Typography.Paragraph type="secondary">{translate('settings.help.placeholders')}</Typography.Paragraph>
      </Col>
      {(['theme_light_overrides', 'theme_dark_overrides'] as const).map((name) => (
        <Col xs={24} md={12} key={name}>
          <Form.Item name={name} label={translate(`settings.theme.${name}`)} extra={translate('settings.theme.help')}>
            <JsonEditor id={`settings-${name}`} placeholder='{ "colorPrimary": "#0B7A75" }' />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

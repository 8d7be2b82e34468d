import { useForm } from '@refinedev/antd';
import { useCan, useTranslation } from '@refinedev/core';
import { AppstoreAddOutlined } from '@ant-design/icons';
import { Affix, Button, Card, Col, ColorPicker, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import { useProject } from '../../app/project-settings.tsx';
import { FileInterface } from '../../content/interfaces/file.tsx';
import type { FieldInfo } from '../../content/schema/types.ts';
import { LOCALES } from '../../i18n/locales.ts';
import { useNavigate } from 'react-router';
import { PageHeader } from '../shared/page-header.tsx';
import { useIsAdmin } from '../shared/use-admin.ts';
import { normalizeModuleBar } from '../../app/shell/shell-rules.ts';
import { useShellSettings } from '../../app/shell/shell-settings.tsx';
import { AspectRatiosList, AssetPresetsList, BasemapsList } from './list-sections.tsx';
import { HelpAndThemeFields, ModuleBarEditor } from './shell-sections.tsx';
import { RegistrationSection } from './registration-section.tsx';
import { SignInProviders } from './sign-in-providers.tsx';
import { ASSET_TRANSFORMS, PASSWORD_POLICIES, settingsIssues, toSettingsFormValues, toSettingsPayload, type SettingsFormValues } from './settings-rules.ts';

const SETTINGS_FIELDS = [
  'project_name', 'project_descriptor', 'project_url', 'project_color', 'project_logo', 'public_note', 'default_language', 'default_appearance',
  'auth_password_policy', 'auth_login_attempts', 'public_registration', 'public_registration_verify_email', 'public_registration_role', 'public_registration_email_filter', 'storage_asset_transform', 'storage_asset_presets', 'mapbox_key', 'basemaps', 'custom_aspect_ratios', 'custom_css',
  'public_foreground', 'public_background', 'public_favicon', 'report_bug_url', 'report_feature_url', 'report_error_url', 'theme_light_overrides', 'theme_dark_overrides', 'module_bar',
];

/** An image field of the settings as the file interface sees it (m2o to files). */
function imageField(field: string): FieldInfo {
  return { collection: 'tessera_settings', field, type: 'uuid', schema: null, meta: { interface: 'file-image' } } as unknown as FieldInfo;
}

/** An image from the file library (thumbnail, choose, upload, clear); the form keeps its id. */
function ImagePicker({ field = 'project_logo', value, onChange, disabled }: { field?: string; value?: string | null; onChange?(value: string | null): void; disabled?: boolean }) {
  return <FileInterface field={imageField(field)} value={value ?? undefined} onChange={(file) => onChange?.(file && typeof file === 'object' ? file.id : (file ?? null))} disabled={disabled} options={{}} />;
}

/** Project settings (the /settings singleton). */
export default function SettingsPage() {
  const { translate } = useTranslation();
  const project = useProject();
  const shell = useShellSettings();
  const { data: canEdit } = useCan({ resource: 'settings', action: 'edit' });
  const { formProps, saveButtonProps, form } = useForm<Record<string, unknown>, never, SettingsFormValues>({
    resource: 'settings',
    action: 'edit',
    id: 'settings',
    redirect: false,
    meta: { singleton: true, fields: SETTINGS_FIELDS },
    queryOptions: {
      select: (response) => ({
        ...response,
        data: { ...toSettingsFormValues(response.data), module_bar: normalizeModuleBar(response.data.module_bar, shell.modules.map((module) => module.id)) } as Record<string, unknown>,
      }),
    },
    successNotification: () => ({ type: 'success', message: translate('shared.saved') }),
    onMutationSuccess: () => void Promise.all([project.reload(), shell.reload()]),
  });
  const readOnly = !canEdit?.can;
  const { isAdmin } = useIsAdmin();
  const navigate = useNavigate();

  const submit = (values: SettingsFormValues) => {
    const issues = settingsIssues(values);
    if (issues.length > 0) {
      form.setFields(issues.map((issue) => ({ name: issue.name as never, errors: [translate(issue.message)] })));
      form.scrollToField(issues[0]!.name as never);
      return;
    }
    return formProps.onFinish?.(toSettingsPayload(values) as never);
  };

  return (
    <>
      <PageHeader
        title={translate('settings.title')}
        subtitle={translate('settings.subtitle')}
        testId="settings-title"
        actions={
          isAdmin ? (
            <Button icon={<AppstoreAddOutlined />} onClick={() => navigate('/settings/extensions')} data-testid="settings-extensions-link">
              {translate('settings.extensions')}
            </Button>
          ) : undefined
        }
      />
      <Form {...formProps} onFinish={submit} layout="vertical" disabled={readOnly} style={{ maxWidth: 1000 }} data-testid="settings-form">
        <Space direction="vertical" size={20} style={{ width: '100%' }}>
          <Card size="small" title={translate('settings.sections.project')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="project_name" label={translate('settings.project.name')} required>
                  <Input data-testid="settings-project-name" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="project_descriptor" label={translate('settings.project.descriptor')}>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="project_url" label={translate('settings.project.url')}>
                  <Input placeholder="https://example.com" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="project_color" label={translate('settings.project.color')} required getValueFromEvent={(color) => `#${color.toHex().slice(0, 6).toUpperCase()}`}>
                  <ColorPicker showText format="hex" disabledAlpha />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item name="project_logo" label={translate('settings.project.logo')}>
                  <ImagePicker />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item name="public_note" label={translate('settings.project.publicNote')} extra={translate('settings.project.publicNoteHelp')}>
                  <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="default_language" label={translate('settings.project.defaultLanguage')}>
                  <Select options={LOCALES.map((locale) => ({ value: locale.code, label: locale.label }))} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="default_appearance" label={translate('settings.project.defaultAppearance')}>
                  <Select options={['auto', 'light', 'dark'].map((value) => ({ value, label: translate(`settings.appearance.${value}`) }))} />
                </Form.Item>
              </Col>
            </Row>
          </Card>
          <Card size="small" title={translate('settings.sections.publicPages')}>
            <Row gutter={16}>
              {(['public_foreground', 'public_background', 'public_favicon'] as const).map((name) => (
                <Col xs={24} md={8} key={name}>
                  <Form.Item name={name} label={translate(`settings.publicPages.${name}`)}>
                    <ImagePicker field={name} />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Card>
          <Card size="small" title={translate('settings.sections.moduleBar')}>
            <Typography.Paragraph type="secondary">{translate('settings.moduleBar.help')}</Typography.Paragraph>
            <ModuleBarEditor />
          </Card>
          <Card size="small" title={translate('settings.sections.helpAndTheme')}>
            <HelpAndThemeFields />
          </Card>
          <Card size="small" title={translate('settings.sections.security')}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="auth_password_policy" label={translate('settings.security.passwordPolicy')}>
                  <Select options={PASSWORD_POLICIES.map((policy) => ({ value: policy, label: translate(`settings.security.policy.${policy}`) }))} data-testid="settings-password-policy" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="auth_login_attempts" label={translate('settings.security.loginAttempts')} extra={translate('settings.security.loginAttemptsHelp')}>
                  <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
          </Card>
          <Card size="small" title={translate('settings.sections.registration')}>
            <RegistrationSection />
          </Card>
          <Card size="small" title={translate('settings.sections.providers')}>
            <SignInProviders />
          </Card>
          <Card size="small" title={translate('settings.sections.files')}>
            <Form.Item name="storage_asset_transform" label={translate('settings.files.transform')} extra={translate('settings.files.transformHelp')}>
              <Select options={ASSET_TRANSFORMS.map((mode) => ({ value: mode, label: translate(`settings.files.transform.${mode}`) }))} style={{ maxWidth: 360 }} />
            </Form.Item>
            <Typography.Text strong>{translate('settings.presets.title')}</Typography.Text>
            <div style={{ marginTop: 8 }}>
              <AssetPresetsList />
            </div>
          </Card>
          <Card size="small" title={translate('settings.sections.maps')}>
            <Form.Item name="mapbox_key" label={translate('settings.maps.mapboxKey')}>
              <Input.Password autoComplete="off" style={{ maxWidth: 420 }} />
            </Form.Item>
            <BasemapsList />
          </Card>
          <Card size="small" title={translate('settings.sections.ratios')}>
            <AspectRatiosList />
          </Card>
          <Card size="small" title={translate('settings.sections.css')}>
            <Form.Item name="custom_css" extra={translate('settings.css.help')}>
              <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} spellCheck={false} style={{ fontFamily: 'ui-monospace, monospace' }} placeholder=".ant-layout-sider { … }" />
            </Form.Item>
          </Card>
        </Space>
        {readOnly ? null : (
          <Affix offsetBottom={16}>
            <div style={{ marginTop: 20 }}>
              <Button type="primary" size="large" {...saveButtonProps} data-testid="settings-save">
                {translate('shared.actions.save')}
              </Button>
            </div>
          </Affix>
        )}
      </Form>
    </>
  );
}

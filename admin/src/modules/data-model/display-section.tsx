import { useTranslation } from '@refinedev/core';
import { Divider, Form, Select } from 'antd';
import '../../content/displays/index.ts';
import { BUILT_IN_DISPLAYS, DISPLAY_OPTIONS } from '../../content/interfaces/interface-options.ts';
import { displays } from '../../extensions/kinds.ts';
import { useRegistry } from '../../extensions/registry.ts';
import { OptionsForm } from './interface-options-form.tsx';

const BUILT_IN = new Set<string>(BUILT_IN_DISPLAYS);

/** The field drawer's display picker (`meta.display`: displays that fit the type, built-in and extensions') and its options. */
export function DisplaySection({ type }: { type: string }) {
  const { translate } = useTranslation();
  const form = Form.useFormInstance();
  const chosen = Form.useWatch('display', form) as string | null | undefined;
  const entries = useRegistry(displays).filter((entry) => !entry.types || entry.types.length === 0 || entry.types.includes(type));
  return (
    <>
      <Divider plain orientation="left">
        {translate('dataModel.field.displaySection')}
      </Divider>
      <Form.Item name="display" label={translate('dataModel.field.display')} extra={translate('dataModel.field.displayHelp')}>
        <Select
          allowClear
          placeholder={translate('dataModel.field.displayDefault')}
          options={entries.map((entry) => ({ value: entry.id, label: BUILT_IN.has(entry.id) ? translate(`dataModel.displays.${entry.id}`) : entry.name }))}
          data-testid="field-display"
        />
      </Form.Item>
      <OptionsForm specs={chosen ? DISPLAY_OPTIONS[chosen] : undefined} name="display_options" testId="display-options" />
    </>
  );
}

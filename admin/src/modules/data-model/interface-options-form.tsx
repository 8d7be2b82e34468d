import { useTranslation } from '@refinedev/core';
import { Divider, Form, Input, InputNumber, Select, Switch } from 'antd';
import { INTERFACE_OPTIONS, type InterfaceOption } from '../../content/interfaces/interface-options.ts';
import { useFolders } from '../../files/file-browser.tsx';
import { folderOptions } from '../../files/file-info.ts';
import { OptionJsonInput } from './option-json-input.tsx';
import { RepeaterFieldsInput } from './repeater-fields-input.tsx';

/** A folder of the file library, by its path ("Photos / 2024"). */
function FolderSelect(props: Record<string, never>) {
  const { translate } = useTranslation();
  const { folders } = useFolders();
  return <Select allowClear showSearch optionFilterProp="label" placeholder={translate('dataModel.options.folder.root')} options={folderOptions(folders ?? [])} {...props} />;
}

/** The input of one option; Form.Item hands it `value`/`checked` and `onChange`, passed on to the control. */
function OptionInput({ option, ...control }: { option: InterfaceOption; value?: unknown; checked?: boolean; onChange?: (value: unknown) => void }) {
  const { translate } = useTranslation();
  const props = control as Record<string, never>;
  switch (option.kind) {
    case 'boolean':
      return <Switch {...props} />;
    case 'number':
      return <InputNumber style={{ width: '100%' }} {...props} />;
    case 'select':
      return <Select allowClear options={option.values.map((value) => ({ value, label: translate(`dataModel.options.${option.field}.${value}`) }))} {...props} />;
    case 'multiselect':
      return <Select mode="multiple" allowClear options={option.values.map((value) => ({ value, label: translate(`dataModel.options.${option.field}.${value}`) }))} {...props} />;
    case 'folder':
      return <FolderSelect {...props} />;
    case 'json':
      return <OptionJsonInput {...props} />;
    case 'fields':
      return <RepeaterFieldsInput {...props} />;
    default:
      return <Input {...props} />;
  }
}

/** The field drawer's options form of an interface (`meta.options`) or a display (`meta.display_options`), Directus's names as keys. */
export function OptionsForm({ specs, name, testId }: { specs: readonly InterfaceOption[] | undefined; name: 'options' | 'display_options'; testId: string }) {
  const { translate } = useTranslation();
  if (!specs || specs.length === 0) return null;
  return (
    <div data-testid={testId}>
      {specs.map((option) => (
        <div key={option.field} data-testid={`${name === 'options' ? 'option' : 'display-option'}-${option.field}`}>
          <Form.Item name={[name, option.field]} label={translate(`dataModel.options.${option.field}`)} valuePropName={option.kind === 'boolean' ? 'checked' : 'value'}>
            <OptionInput option={option} />
          </Form.Item>
        </div>
      ))}
    </div>
  );
}

/** The chosen interface's options, under their own heading. */
export function InterfaceOptionsForm({ interfaceId }: { interfaceId: string | null | undefined }) {
  const { translate } = useTranslation();
  const specs = INTERFACE_OPTIONS[interfaceId ?? ''];
  if (!specs || specs.length === 0) return null;
  return (
    <>
      <Divider plain orientation="left">
        {translate('dataModel.field.interfaceOptions')}
      </Divider>
      <OptionsForm specs={specs} name="options" testId="interface-options" />
    </>
  );
}

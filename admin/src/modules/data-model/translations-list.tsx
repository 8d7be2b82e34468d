import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from '@refinedev/core';
import { Button, Flex, Form, Input, Select } from 'antd';
import { LOCALES } from '../../i18n/locales.ts';

/**
 * A list of translations of a name: language and translation required (SPEC §5); collections also
 * take singular and plural forms.
 */
export function TranslationsList({ name, withForms = false }: { name: string; withForms?: boolean }) {
  const { translate } = useTranslation();
  const required = { required: true, message: translate('dataModel.rules.required') };
  return (
    <Form.List name={name}>
      {(entries, { add, remove }) => (
        <>
          {entries.map((entry) => (
            <Flex key={entry.key} gap={8} align="baseline" wrap>
              <Form.Item name={[entry.name, 'language']} rules={[required]} style={{ width: 170 }}>
                <Select placeholder={translate('shared.language')} options={LOCALES.map((locale) => ({ value: locale.code, label: locale.label }))} />
              </Form.Item>
              <Form.Item name={[entry.name, 'translation']} rules={[required]} style={{ flex: 1, minWidth: 140 }}>
                <Input placeholder={translate('shared.translation')} />
              </Form.Item>
              {withForms ? (
                <>
                  <Form.Item name={[entry.name, 'singular']} style={{ flex: 1, minWidth: 120 }}>
                    <Input placeholder={translate('dataModel.translations.singular')} />
                  </Form.Item>
                  <Form.Item name={[entry.name, 'plural']} style={{ flex: 1, minWidth: 120 }}>
                    <Input placeholder={translate('dataModel.translations.plural')} />
                  </Form.Item>
                </>
              ) : null}
              <Button type="text" aria-label={translate('shared.actions.remove')} icon={<MinusCircleOutlined />} onClick={() => remove(entry.name)} />
            </Flex>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})}>
            {translate('dataModel.translations.add')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

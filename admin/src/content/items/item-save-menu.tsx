import { CopyOutlined, DownOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Dropdown, Space, type ButtonProps, type MenuProps } from 'antd';

/** What a save does once the item is stored: stay on it, or start a new one. */
export type AfterSave = 'stay' | 'new';

/**
 * The Save button (saves and stays; Ctrl/Cmd+S does the same) and its menu: save and create new (when
 * `createNew`), save as copy (when `onCopy` is given). `label` names where the save goes (a version, when one is edited).
 */
export function ItemSaveMenu({ label, buttonProps, onSave, createNew, onCopy, copying }: { label: string; buttonProps: ButtonProps; onSave(after: AfterSave): void; createNew: boolean; onCopy?: () => void; copying?: boolean }) {
  const translate = useTranslate();
  const shortcut = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘S' : 'Ctrl+S';
  const items: MenuProps['items'] = [
    { key: 'stay', icon: <SaveOutlined />, label: <span data-testid="item-save-stay">{translate('content.item.saveAndStay')}</span>, extra: shortcut },
    ...(createNew ? [{ key: 'new', icon: <PlusOutlined />, label: <span data-testid="item-save-new">{translate('content.item.saveAndCreateNew')}</span> }] : []),
    ...(onCopy ? [{ key: 'copy', icon: <CopyOutlined />, label: <span data-testid="item-save-copy">{translate('content.item.saveAsCopy')}</span> }] : []),
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'copy') onCopy?.();
    else onSave(key as AfterSave);
  };
  return (
    <Space.Compact>
      <Button type="primary" icon={<SaveOutlined />} {...buttonProps} onClick={() => onSave('stay')} data-testid="save-item">
        {label}
      </Button>
      <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']} placement="bottomRight" disabled={buttonProps.disabled}>
        <Button type="primary" icon={<DownOutlined />} loading={copying} aria-label={translate('content.item.moreSaveOptions')} data-testid="save-options" />
      </Dropdown>
    </Space.Compact>
  );
}

import { useTranslate } from '@refinedev/core';
import { Checkbox, ColorPicker, Radio, Select, Space, Tree } from 'antd';
import type { ColorPickerProps } from 'antd';
import { CollectionIcon, ICON_NAMES } from '../../components/collection-icon.tsx';
import { choicesOf } from './dropdown.tsx';
import { stringOption, type InterfaceProps } from './types.ts';

/** One value from `options.choices` as radio buttons (`select-radio`). */
export function RadioInterface({ field, value, onChange, disabled, options }: InterfaceProps<string | number>) {
  return (
    <Radio.Group id={`field-${field.field}`} value={value ?? undefined} disabled={disabled} onChange={(event) => onChange?.(event.target.value)} data-testid={`radio-${field.field}`}>
      <Space direction="vertical" size={4}>
        {choicesOf(options).map((choice) => (
          <Radio key={String(choice.value)} value={choice.value}>
            {choice.label}
          </Radio>
        ))}
      </Space>
    </Radio.Group>
  );
}

/** Several values from `options.choices` as checkboxes (`select-multiple-checkbox`; csv and json fields). */
export function CheckboxesInterface({ field, value, onChange, disabled, options }: InterfaceProps<(string | number)[]>) {
  return (
    <Checkbox.Group
      value={Array.isArray(value) ? value : []}
      disabled={disabled}
      options={choicesOf(options)}
      onChange={(next) => onChange?.(next.length > 0 ? (next as (string | number)[]) : null)}
      data-testid={`checkboxes-${field.field}`}
    />
  );
}

interface TreeChoice {
  text?: string;
  value: string;
  children?: TreeChoice[];
}

interface TreeNode {
  key: string;
  title: string;
  children?: TreeNode[];
}

function treeOf(choices: unknown): TreeNode[] {
  if (!Array.isArray(choices)) return [];
  return (choices as TreeChoice[]).filter((choice) => choice && typeof choice === 'object').map((choice) => ({ key: String(choice.value), title: String(choice.text ?? choice.value), children: choice.children ? treeOf(choice.children) : undefined }));
}

/**
 * Nested choices as a checkbox tree (`select-multiple-checkbox-tree`): `options.choices` with `children`.
 * `valueCombining` (Directus's option) decides what a checked branch stores: `all` (default: the branch and
 * every checked node), `branch` (the branch alone), `leaf` (its leaves alone).
 */
export function CheckboxTreeInterface({ field, value, onChange, disabled, options }: InterfaceProps<string[]>) {
  const nodes = treeOf(options.choices);
  const combining = stringOption(options, 'valueCombining') ?? 'all';
  const parentOf = new Map<string, string>();
  const leaves = new Set<string>();
  const walk = (list: TreeNode[], parent?: string) => {
    for (const node of list) {
      if (parent) parentOf.set(node.key, parent);
      if (node.children?.length) walk(node.children, node.key);
      else leaves.add(node.key);
    }
  };
  walk(nodes);
  const checked = Array.isArray(value) ? value.map(String) : [];
  const store = (keys: string[]) => {
    const set = new Set(keys);
    const kept = combining === 'leaf' ? keys.filter((key) => leaves.has(key)) : combining === 'branch' ? keys.filter((key) => !set.has(parentOf.get(key) ?? '')) : keys;
    onChange?.(kept.length > 0 ? kept : null);
  };
  return (
    <div data-testid={`checkbox-tree-${field.field}`}>
      <Tree
        checkable
        defaultExpandAll
        selectable={false}
        disabled={disabled}
        treeData={nodes}
        checkedKeys={checked}
        onCheck={(keys) => store((Array.isArray(keys) ? keys : keys.checked).map(String))}
      />
    </div>
  );
}

/** A colour (`select-color`): `#RRGGBB`, or `#RRGGBBAA` when `options.opacity` is on; `options.presets` as `[{ name, color }]`. */
export function ColorInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const presets = Array.isArray(options.presets) ? (options.presets as Array<{ name?: string; color?: string }>).filter((preset) => typeof preset?.color === 'string') : [];
  const translate = useTranslate();
  const opacity = Boolean(options.opacity);
  return (
    <span data-testid={`color-${field.field}`}>
      <ColorPicker
        value={value || undefined}
        disabled={disabled}
        disabledAlpha={!opacity}
        allowClear
        showText
        format="hex"
        presets={presets.length > 0 ? [{ label: translate('content.color.presets'), colors: presets.map((preset) => preset.color!) }] : undefined}
        onChange={(color: Parameters<NonNullable<ColorPickerProps['onChange']>>[0]) => onChange?.(color.cleared ? null : color.toHexString().toUpperCase())}
        onClear={() => onChange?.(null)}
      />
    </span>
  );
}

/** An icon name (`select-icon`): the names the admin draws, shown with their icons. */
export function IconInterface({ field, value, onChange, disabled }: InterfaceProps<string>) {
  return (
    <Select
      id={`field-${field.field}`}
      value={value ?? undefined}
      disabled={disabled}
      allowClear
      showSearch
      onChange={(next) => onChange?.(next ?? null)}
      options={ICON_NAMES.map((name) => ({
        value: name,
        label: (
          <Space size={8}>
            <CollectionIcon name={name} />
            {name}
          </Space>
        ),
      }))}
      optionFilterProp="value"
      data-testid={`icon-${field.field}`}
    />
  );
}

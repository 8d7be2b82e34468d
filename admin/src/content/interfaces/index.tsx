import type { ComponentType } from 'react';
import type { FieldInfo } from '../schema/types.ts';
import { relationalKind } from '../field-kinds.ts';
import { valueKindOf, type ValueKind } from '../field-type-table.ts';
import { AutocompleteInterface } from './autocomplete.tsx';
import { DateTimeInterface } from './datetime.tsx';
import { DropdownInterface, MultipleDropdownInterface, TagsInterface } from './dropdown.tsx';
import { FileInterface } from './file.tsx';
import { HeaderInterface } from './header.tsx';
import { KeyValueInterface } from './key-value.tsx';
import { TreeViewInterface } from './tree-view.tsx';
import { InputInterface } from './input.tsx';
import { JsonInterface } from './json.tsx';
import { MapInterface } from './map.tsx';
import { ManyToOneInterface } from './many-to-one.tsx';
import { ManyToAnyInterface } from './many-to-any.tsx';
import { RepeaterInterface } from './repeater.tsx';
import { DividerInterface, LinksInterface, NoticeInterface } from './presentation.tsx';
import { HashInterface, SliderInterface } from './text-extras.tsx';
import { CodeInterface } from './code/code-interface.tsx';
import { CheckboxesInterface, CheckboxTreeInterface, ColorInterface, IconInterface, RadioInterface } from './selection.tsx';
import { NumberInterface } from './number.tsx';
import { lazyInterface } from './lazy-interface.tsx';
import { MarkdownInterface } from './markdown.tsx';
import { TextareaInterface } from './textarea.tsx';
import { ToManyInterface } from './to-many.tsx';
import { TranslationsInterface } from './translations.tsx';
import { ToggleInterface } from './toggle.tsx';
import type { InterfaceProps } from './types.ts';
import { interfaces } from '../../extensions/kinds.ts';
import { useRegistry } from '../../extensions/registry.ts';

export type { InterfaceProps } from './types.ts';

type AnyInterface = ComponentType<InterfaceProps<any>>;

const RichTextInterface = lazyInterface(() => import('./rich-text/rich-text-editor.tsx'));
const BlockEditorInterface = lazyInterface(() => import('./block-editor/block-editor.tsx'));

/** Interfaces by `meta.interface` name (the names Directus uses, so existing schemas read the same). */
export const INTERFACES: Record<string, AnyInterface> = {
  input: InputInterface,
  'input-hash': HashInterface,
  textarea: TextareaInterface,
  'input-multiline': TextareaInterface,
  'input-code': CodeInterface,
  slider: SliderInterface,
  'presentation-divider': DividerInterface,
  'presentation-notice': NoticeInterface,
  'presentation-links': LinksInterface,
  'input-markdown': MarkdownInterface,
  markdown: MarkdownInterface,
  'input-rich-text-md': MarkdownInterface,
  'input-rich-text-html': RichTextInterface,
  'rich-text': RichTextInterface,
  'input-block-editor': BlockEditorInterface,
  numeric: NumberInterface,
  number: NumberInterface,
  boolean: ToggleInterface,
  toggle: ToggleInterface,
  datetime: DateTimeInterface,
  'select-dropdown': DropdownInterface,
  'select-radio': RadioInterface,
  'select-multiple-dropdown': MultipleDropdownInterface,
  'select-multiple-checkbox': CheckboxesInterface,
  'select-multiple-checkbox-tree': CheckboxTreeInterface,
  'select-color': ColorInterface,
  'select-icon': IconInterface,
  tags: TagsInterface,
  'input-json': JsonInterface,
  json: JsonInterface,
  'list-json': JsonInterface,
  list: RepeaterInterface,
  'select-dropdown-m2o': ManyToOneInterface,
  m2o: ManyToOneInterface,
  'list-o2m': ToManyInterface,
  'list-m2m': ToManyInterface,
  'list-m2a': ManyToAnyInterface,
  files: ToManyInterface,
  translations: TranslationsInterface,
  file: FileInterface,
  'file-image': FileInterface,
  map: MapInterface,
  'input-autocomplete-api': AutocompleteInterface,
  header: HeaderInterface,
  'key-value': KeyValueInterface,
  'list-o2m-tree-view': TreeViewInterface,
};

// Built-in interfaces enter the registry exactly as extensions' do (admin/src/extensions/kinds.ts).
for (const [id, component] of Object.entries(INTERFACES)) interfaces.register({ id, name: id, component, builtIn: true });

/** The interface that edits each value kind when a field names none (or names `input` for a type that is not text). */
const EDITORS = {
  string: InputInterface,
  uuid: InputInterface,
  hash: InputInterface,
  text: TextareaInterface,
  integer: NumberInterface,
  bigInteger: NumberInterface,
  float: NumberInterface,
  decimal: NumberInterface,
  boolean: ToggleInterface,
  date: DateTimeInterface,
  time: DateTimeInterface,
  dateTime: DateTimeInterface,
  json: JsonInterface,
  csv: TagsInterface,
  // Geometry fields hold GeoJSON objects: a map edits them.
  geometry: MapInterface,
  alias: InputInterface,
} satisfies Record<ValueKind, AnyInterface>;

/** Value kinds the plain `input` interface edits as they are. */
const INPUT_KINDS: ReadonlySet<ValueKind> = new Set(['string', 'uuid', 'hash']);

/** The interface when `meta.interface` is empty or unknown: from the relation, then the type. */
function defaultInterface(field: FieldInfo): AnyInterface {
  switch (relationalKind(field)) {
    case 'm2o':
      return ManyToOneInterface;
    case 'o2m':
    case 'm2m':
    case 'files':
      return ToManyInterface;
    case 'translations':
      return TranslationsInterface;
    case 'm2a':
      return ManyToAnyInterface;
    default:
  }
  return EDITORS[valueKindOf(field.type)];
}

/** The component that edits a field: `meta.interface` when known, else one that fits its type. */
export function interfaceFor(field: FieldInfo): AnyInterface {
  const name = field.meta?.interface;
  // The API fills `input` for fields created without an interface; for non-text types the type knows better.
  if (name === 'input' && !INPUT_KINDS.has(valueKindOf(field.type))) return defaultInterface(field);
  return interfaces.get(name)?.component ?? defaultInterface(field);
}

/** The same as a component: `<InterfaceFor field={…} value onChange options />`; follows interfaces that extensions register later. */
export function InterfaceFor(props: InterfaceProps<unknown>) {
  useRegistry(interfaces);
  const Component = interfaceFor(props.field);
  return <Component {...props} />;
}

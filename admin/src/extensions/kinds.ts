import type { ComponentType, ReactNode } from 'react';
import type { InterfaceProps } from '../content/interfaces/types.ts';
import type { FieldInfo } from '../content/schema/types.ts';
import { createRegistry } from './registry.ts';

/** An interface: the component that edits a field whose `meta.interface` is its id. */
export interface InterfaceDefinition {
  id: string;
  name: string;
  icon?: string;
  /** Field types it fits (the data model offers it for them); empty or absent: every type. */
  types?: string[];
  /** Set for Tessera's own interfaces (their names and the types they fit are in the data model's table). */
  builtIn?: boolean;
  /** `any`: each interface edits its own value type, and props are contravariant. */
  component: ComponentType<InterfaceProps<any>>;
}

/** What a display renders: a field's value where items are listed. */
export interface DisplayProps {
  value: unknown;
  field: FieldInfo;
  options: Record<string, unknown>;
}

/** A display: how a value whose field's `meta.display` is its id shows in lists. */
export interface DisplayDefinition {
  id: string;
  name: string;
  types?: string[];
  component: ComponentType<DisplayProps>;
}

/** The list query a layout shows, as the API takes it (docs/query.md). */
export interface LayoutQuery {
  fields: string[];
  filter: Record<string, unknown> | null;
  search: string;
  /** Field names, `-` first for descending. */
  sort: string[];
  limit: number;
  page: number;
}

/**
 * What a layout is handed: the collection page reads the items (search, filter, archive view, sort, page
 * are the page's) and the layout shows them. A layout that reads its own items (the map reads those in
 * view) may ignore `items` and use `query`'s filter and search.
 */
export interface LayoutProps {
  collection: string;
  primaryKey: string;
  /** The fields the page lists (the columns chosen), in the data model's order. */
  fields: FieldInfo[];
  /** Every field a list may show, for layouts that let the user pick one (a title, a date, a group). */
  allFields: FieldInfo[];
  query: LayoutQuery;
  /** Changes sort, page or page size; the page reads again and remembers the view. */
  onQueryChange(change: Partial<Pick<LayoutQuery, 'sort' | 'limit' | 'page'>>): void;
  /** The items of the current page, read with `query` as the signed-in user. */
  items: Array<Record<string, unknown>>;
  /** How many items match `query` on every page. */
  total: number;
  loading: boolean;
  /** Selected item keys (bulk delete, manual flows); `onSelectionChange` is absent when nothing may be done with a selection. */
  selection: Array<string | number>;
  onSelectionChange?(keys: Array<string | number>): void;
  /** The layout's own settings, remembered with the view (tessera_presets.layout_options[<layout id>]). */
  options: Record<string, unknown>;
  onOptionsChange(options: Record<string, unknown>): void;
  /** Opens an item's page. */
  onOpen(key: string | number): void;
  /** Reads the items again (after the layout changed some). */
  refresh(): void;
  /** What to show when there are no items: the page's message (and its create button). */
  empty: ReactNode;
}

/** A layout: a way to show a collection's items on its page (Table, Cards, Calendar, Kanban and Map are built in). */
export interface LayoutDefinition {
  id: string;
  /** Shown in the layout switcher (a message key for built-in layouts). */
  name: string;
  icon?: ReactNode;
  builtIn?: boolean;
  /** Whether the layout can show this collection (the map needs a geometry field); absent: any. */
  fits?(fields: readonly FieldInfo[]): boolean;
  /** Field paths the page reads for the items besides the chosen columns (a card's title template's fields), from the layout's options. */
  readFields?(options: Record<string, unknown>, allFields: readonly FieldInfo[]): string[];
  component: ComponentType<LayoutProps>;
}

/** What a panel is handed on a dashboard, in the panel editor's preview too. */
export interface PanelProps {
  /** The panel's type: its definition's id. */
  type: string;
  options: Record<string, unknown>;
  /** What the server computed for a built-in panel type (an extension's panel gets `{}` and reads its own with the SDK). */
  result: unknown;
  loading: boolean;
  timeZone: string;
  testId: string;
  /** A variable panel's current value and how to change it. */
  variable?: { value: unknown; onChange(value: unknown): void };
}

/** One setting of an extension's panel, shown in the panel editor: `collection` picks one, the others are inputs. */
export interface PanelOptionField {
  field: string;
  name: string;
  type: 'collection' | 'string' | 'text' | 'number' | 'boolean';
  required?: boolean;
}

/** A panel: a kind of Insights dashboard panel (the nine of Directus are built in). */
export interface PanelDefinition {
  id: string;
  /** Shown in the panel type picker (a message key for built-in panels). */
  name: string;
  icon?: string;
  builtIn?: boolean;
  /** The settings the panel editor offers (built-in panels have their own form). */
  options?: PanelOptionField[];
  /** Grid size (24 columns, 40 px rows) a new panel starts with. */
  defaultSize?: { width: number; height: number };
  component: ComponentType<PanelProps>;
}

/** A module: a page of its own at /admin/modules/<id>, with a menu entry. */
export interface ModuleDefinition {
  id: string;
  /** The menu entry's text (a message key for built-in modules). */
  name: string;
  icon?: ReactNode;
  /** Set for Tessera's own modules: their menu entry leads to `path`, ordered by settings.module_bar and shown by the caller's permissions. */
  builtIn?: boolean;
  path?: string;
  component: ComponentType;
}

export const interfaces = createRegistry<InterfaceDefinition>();
export const displays = createRegistry<DisplayDefinition>();
export const layouts = createRegistry<LayoutDefinition>();
export const panels = createRegistry<PanelDefinition>();
export const modules = createRegistry<ModuleDefinition>();

/** The registries by the extension kind that fills them. */
export const REGISTRIES = { interface: interfaces, display: displays, layout: layouts, panel: panels, module: modules } as const;
export type AppExtensionKind = keyof typeof REGISTRIES;

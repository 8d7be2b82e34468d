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

/** A layout: another way to show a collection's items. */
export interface LayoutDefinition {
  id: string;
  name: string;
  icon?: string;
  component: ComponentType<{ collection: string }>;
}

/** A panel: a kind of Insights dashboard panel. */
export interface PanelDefinition {
  id: string;
  name: string;
  icon?: string;
  component: ComponentType<{ options: Record<string, unknown> }>;
}

/** A module: a page of its own at /admin/modules/<id>, with a menu entry. */
export interface ModuleDefinition {
  id: string;
  name: string;
  icon?: ReactNode;
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

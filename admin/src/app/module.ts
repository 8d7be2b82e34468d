import type { ResourceProps } from '@refinedev/core';
import type { ReactElement } from 'react';

/** The locales the admin ships; en-US is the default and the fallback for missing keys. */
export type Locale = 'en-US' | 'pt-BR';

/** Messages of one area of the admin, by key (dot-separated, prefixed with the area's name). */
export type Messages = Record<string, string>;

/**
 * One area of the admin (data model, users and roles, settings, activity …) plugged into the app shell:
 * its Refine resources (they feed the menu and access control), its routes (mounted inside the signed-in
 * layout) and its messages in every locale.
 */
export interface AdminModule {
  name: string;
  resources: ResourceProps[];
  routes: ReactElement;
  messages: Record<Locale, Messages>;
}

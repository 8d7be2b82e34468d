import { useTranslate } from '@refinedev/core';
import { useCallback } from 'react';
import { collectionLabel, titleCase } from '../content/navigation.ts';
import type { CollectionInfo } from '../content/schema/types.ts';
import { usePreferences } from './preferences.tsx';

/**
 * Names the system wrote rather than a person: system collections (`tessera_users`) and the role and
 * description seeded with the project. They show in the app's language; only the display changes, the
 * data keeps what it holds (a role renamed by someone is shown as written).
 */

/** What the server seeds (server/services/bootstrap.ts); a role still holding them is shown translated. */
export const SEEDED_ROLE = { name: 'Administrator', description: 'Full access to every collection and setting.' };

/** The key of a system collection's name: `tessera_users` → `app.system.collections.users`. */
export function systemCollectionKey(collection: string): string | null {
  return collection.startsWith('tessera_') ? `app.system.collections.${collection.slice('tessera_'.length)}` : null;
}

/** A collection's name for people: its translation, a system collection's name in the app's language, else title case. */
export function useCollectionName() {
  const translate = useTranslate();
  const { locale } = usePreferences();
  return useCallback(
    (name: string, info?: CollectionInfo) => {
      const key = systemCollectionKey(name);
      if (key) return translate(key, titleCase(name.slice('tessera_'.length)));
      return info ? collectionLabel(info, locale) : titleCase(name);
    },
    [translate, locale],
  );
}

/** A role's name and description as shown: the seeded ones in the app's language. */
export function useRoleText() {
  const translate = useTranslate();
  return {
    name: (name: string | null | undefined) => (name === SEEDED_ROLE.name ? translate('app.system.roles.administrator', name) : (name ?? '')),
    description: (description: string | null | undefined) => (description === SEEDED_ROLE.description ? translate('app.system.roles.administratorDescription', description) : (description ?? '')),
  };
}

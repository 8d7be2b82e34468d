import { resolveText } from '../i18n/custom-texts.ts';
import type { CollectionInfo } from './schema/types.ts';

/** One entry of the content menu: a collection (with items) or a folder (only children). */
export interface NavigationNode {
  collection: string;
  label: string;
  icon: string | null;
  color: string | null;
  folder: boolean;
  singleton: boolean;
  /** `closed` groups start collapsed; `locked` groups always show their children. */
  collapse: 'open' | 'closed' | 'locked';
  children: NavigationNode[];
}

/** `blog_posts` → `Blog Posts`. */
export function titleCase(name: string): string {
  return name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** The collection's name in the locale (its translations, `$t:key` resolved), or its name in title case. */
export function collectionLabel(collection: CollectionInfo, locale: string, form: 'translation' | 'singular' | 'plural' = 'translation'): string {
  const translation = collection.meta?.translations?.find((entry) => entry.language === locale) ?? collection.meta?.translations?.find((entry) => entry.language.slice(0, 2) === locale.slice(0, 2));
  const text = (form !== 'translation' ? translation?.[form] : undefined) || translation?.translation;
  return text ? resolveText(text, locale) : titleCase(collection.collection);
}

/**
 * The content menu: user collections (system ones and hidden ones left out), nested under their
 * `meta.group`, ordered by `meta.sort` then name. A collection whose group is not visible goes to the top.
 */
export function buildNavigation(collections: CollectionInfo[], locale: string): NavigationNode[] {
  const visible = collections.filter((collection) => !collection.collection.startsWith('tessera_') && !collection.meta?.hidden);
  const names = new Set(visible.map((collection) => collection.collection));
  const order = (a: CollectionInfo, b: CollectionInfo) => (a.meta?.sort ?? 1e9) - (b.meta?.sort ?? 1e9) || a.collection.localeCompare(b.collection);

  const build = (parent: string | null, seen: Set<string>): NavigationNode[] =>
    visible
      .filter((collection) => {
        const group = collection.meta?.group ?? null;
        return parent === null ? group === null || !names.has(group) || group === collection.collection : group === parent && group !== collection.collection;
      })
      .sort(order)
      .filter((collection) => !seen.has(collection.collection))
      .map((collection) => {
        const next = new Set(seen).add(collection.collection);
        return {
          collection: collection.collection,
          label: collectionLabel(collection, locale),
          icon: collection.meta?.icon ?? null,
          color: collection.meta?.color ?? null,
          folder: collection.schema === null,
          singleton: Boolean(collection.meta?.singleton),
          collapse: collection.meta?.collapse ?? 'open',
          children: build(collection.collection, next),
        };
      });

  return build(null, new Set());
}

/** The first collection with items in the tree (where the content area opens). */
export function firstCollection(nodes: NavigationNode[]): string | null {
  for (const node of nodes) {
    if (!node.folder) return node.collection;
    const child = firstCollection(node.children);
    if (child) return child;
  }
  return null;
}

import { AppstoreOutlined, BookOutlined, LinkOutlined } from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import { useTranslate } from '@refinedev/core';
import { Menu, Typography, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CollectionIcon } from '../../components/collection-icon.tsx';
import { buildNavigation, type NavigationNode } from '../../content/navigation.ts';
import { onBookmarksChanged, readBookmarks, type BookmarkEntry } from '../../content/items/bookmarks.ts';
import { useSchema } from '../../content/schema/schema-context.tsx';
import { accessControlProvider } from '../../providers/access-control-provider.ts';
import { usePreferences } from '../preferences.tsx';
import { isSafeLink, normalizeModuleBar } from '../shell/shell-rules.ts';
import { useShellSettings } from '../shell/shell-settings.tsx';
import { modules as moduleRegistry } from '../../extensions/kinds.ts';
import '../../modules/built-in-modules.tsx';
import { useRegistry } from '../../extensions/registry.ts';

type MenuItem = Required<MenuProps>['items'][number];

function contentItems(nodes: NavigationNode[], bookmarks: BookmarkEntry[]): MenuItem[] {
  return nodes.map((node) => {
    const icon = <CollectionIcon name={node.icon} folder={node.folder} color={node.color} />;
    const label = <span data-testid={`nav-${node.collection}`}>{node.label}</span>;
    // Bookmarks of a collection sit under it, after the collection itself.
    const saved: MenuItem[] = bookmarks
      .filter((entry) => entry.collection === node.collection)
      .map((entry) => ({ key: `/content/${node.collection}?bookmark=${entry.id}`, icon: <BookOutlined />, label: <span data-testid={`nav-bookmark-${entry.id}`}>{entry.bookmark}</span> }));
    if (node.children.length === 0 && saved.length === 0) return { key: `/content/${node.collection}`, icon, label, disabled: node.folder };
    if (node.children.length === 0) return { key: `group:${node.collection}`, icon, label, children: [{ key: `/content/${node.collection}`, icon, label }, ...saved] };
    const children = [...saved, ...contentItems(node.children, bookmarks)];
    // A collection with items that also groups others opens itself first, then its children.
    return { key: `group:${node.collection}`, icon, label, children: node.folder ? children : [{ key: `/content/${node.collection}`, icon, label }, ...children] };
  });
}

/** Which module resources the caller may list (asked once per resource list). */
function useAllowedResources(resources: ResourceProps[]): ResourceProps[] {
  const [allowed, setAllowed] = useState<ResourceProps[]>([]);
  useEffect(() => {
    let live = true;
    void Promise.all(
      resources.map(async (resource) => {
        if (typeof resource.list !== 'string' || resource.meta?.hide) return false;
        const answer = await accessControlProvider.can({ resource: resource.name, action: 'list', params: { resource: { ...resource, name: resource.name } as never } });
        return answer.can;
      }),
    ).then((flags) => live && setAllowed(resources.filter((_, index) => flags[index])));
    return () => {
      live = false;
    };
  }, [resources]);
  return allowed;
}

/** The sider's menu: the content tree from /collections, then the modules' screens the caller may open. */
export function SideMenu({ moduleResources }: { moduleResources: ResourceProps[] }) {
  const translate = useTranslate();
  // `overrides` changes when the translations collection is read again: `$t:` labels follow it.
  const { locale, overrides } = usePreferences();
  const schema = useSchema();
  const navigate = useNavigate();
  const location = useLocation();
  const tree = useMemo(() => buildNavigation(schema.collections, locale), [schema.collections, locale, overrides]);
  const allowed = useAllowedResources(moduleResources);
  const [bookmarks, setBookmarks] = useState<BookmarkEntry[]>([]);
  useEffect(() => {
    const load = () => void readBookmarks().then(setBookmarks);
    load();
    return onBookmarksChanged(load);
  }, []);
  const { settings, modules } = useShellSettings();

  const openGroups = useMemo(() => {
    const keys: string[] = [];
    const walk = (nodes: NavigationNode[]) => {
      for (const node of nodes) {
        if (node.children.length > 0 && node.collapse !== 'closed') keys.push(`group:${node.collection}`);
        walk(node.children);
      }
    };
    walk(tree);
    return keys;
  }, [tree]);

  // Built-in modules and extensions' modules are entries of one registry (admin/src/modules/built-in-modules.tsx).
  const registered = useRegistry(moduleRegistry);
  // settings.module_bar orders the modules, hides some and adds links; the caller's permissions still decide.
  const moduleItems: MenuItem[] = normalizeModuleBar(settings.module_bar, modules.map((module) => module.id)).flatMap((entry): MenuItem[] => {
    if (!entry.enabled) return [];
    if (entry.type === 'link') {
      if (!isSafeLink(entry.url)) return [];
      return [{ key: `link:${entry.id}`, icon: <LinkOutlined />, label: <a href={entry.url} target="_blank" rel="noreferrer" data-testid={`nav-link-${entry.id}`}>{entry.name}</a> }];
    }
    const module = registered.find((candidate) => candidate.id === entry.id && candidate.builtIn && candidate.path);
    if (!module || !allowed.some((candidate) => candidate.name === entry.id)) return [];
    return [{ key: module.path!, icon: module.icon, label: <span data-testid={`nav-module-${module.id}`}>{translate(module.name)}</span> }];
  });

  // Modules of admin extensions, after the built-in ones.
  const extensionItems: MenuItem[] = registered.filter((module) => !module.builtIn).map((module) => ({
    key: `/modules/${module.id}`,
    icon: module.icon ?? <AppstoreOutlined />,
    label: <span data-testid={`nav-extension-${module.id}`}>{module.name}</span>,
  }));
  moduleItems.push(...extensionItems);

  const items: MenuItem[] = [
    {
      type: 'group',
      key: 'content',
      label: translate('app.menu.content'),
      children: tree.length > 0 ? contentItems(tree, bookmarks) : [{ key: 'empty', label: <Typography.Text type="secondary">{translate('app.menu.noCollections')}</Typography.Text>, disabled: true }],
    },
    ...(moduleItems.length > 0 ? [{ type: 'divider' } as MenuItem, ...moduleItems] : []),
  ];

  const here = `${location.pathname}${location.search}`;
  const bookmarkKeys = bookmarks.map((entry) => `/content/${entry.collection}?bookmark=${entry.id}`);
  const selected = bookmarkKeys.includes(here)
    ? [here]
    : [...allowed.map((resource) => resource.list as string), ...extensionItems.map((item) => String(item!.key)), ...schema.collections.map((collection) => `/content/${collection.collection}`)]
    .filter((path) => location.pathname === path || location.pathname.startsWith(`${path}/`))
    .sort((a, b) => b.length - a.length)
    .slice(0, 1);

  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected}
      defaultOpenKeys={openGroups}
      key={openGroups.join(',')}
      onClick={({ key }) => {
        if (key.startsWith('/')) navigate(key);
      }}
      style={{ borderInlineEnd: 0, background: 'transparent' }}
    />
  );
}

/**
 * The files `tessera extensions create <kind> <name>` writes for the admin's kinds: TSX whose JSX compiles
 * to `React.createElement` with the host's React in scope (the default export is a function of the host),
 * so `tessera extensions build` bundles the extension's own code and none of React, antd or the SDK.
 * `{{name}}` is the extension's name, `{{title}}` the same in words.
 */

const HOST = `// What the admin hands an admin extension (docs/extensions.md, "Admin extensions"). Types only: nothing
// here is bundled, the admin's own React, antd and SDK are used at run time.

type Query = Record<string, unknown>;

export interface Api {
  request<T = unknown>(path: string, options?: { method?: string; query?: Query; body?: unknown }): Promise<T>;
  data<T = unknown>(path: string, options?: { method?: string; query?: Query; body?: unknown }): Promise<T>;
}

export interface Host {
  /** The admin's React (JSX in src/ compiles to React.createElement). */
  React: any;
  /** The admin's antd: its components share the admin's theme and locale. */
  antd: any;
  sdk: {
    useApi(): Api;
    useItems<T = Record<string, unknown>>(collection: string, query?: Query): { items: T[]; loading: boolean; error: string | null; refresh(): void };
    useCollection(name: string): { collection: unknown; fields: Array<{ field: string; type: string }> };
    InterfaceFor: any;
    api: Api;
  };
}
`;

const INTERFACE = `// An interface: edits a field whose meta.interface is "{{name}}" in the item form.
import type { Host } from './host.ts';

interface Props {
  value: string | null;
  onChange(value: string | null): void;
  disabled?: boolean;
  options: { placeholder?: string };
}

export default ({ React, antd }: Host) => ({
  type: 'interface',
  id: '{{name}}',
  name: '{{title}}',
  types: ['string', 'text'],
  component: ({ value, onChange, disabled, options }: Props) => (
    <antd.Input value={value ?? ''} disabled={disabled} placeholder={options.placeholder} onChange={(event: { target: { value: string } }) => onChange(event.target.value || null)} data-testid="{{name}}" />
  ),
});
`;

const DISPLAY = `// A display: how a value whose field's meta.display is "{{name}}" shows where items are listed.
import type { Host } from './host.ts';

export default ({ React, antd }: Host) => ({
  type: 'display',
  id: '{{name}}',
  name: '{{title}}',
  component: ({ value }: { value: unknown }) => <antd.Tag data-testid="{{name}}">{value === null || value === undefined ? '—' : String(value)}</antd.Tag>,
});
`;

const LAYOUT = `// A layout: another way to show a collection's items on its page (the layout switcher offers it).
// It gets the items the page read with its query (search, filter, sort, page) and the contract's callbacks.
import type { Host } from './host.ts';

interface LayoutProps {
  collection: string;
  primaryKey: string;
  fields: Array<{ field: string; type: string }>;
  items: Array<Record<string, unknown>>;
  total: number;
  loading: boolean;
  options: { titleField?: string };
  onOptionsChange(options: { titleField?: string }): void;
  onOpen(key: string | number): void;
}

export default ({ React, antd }: Host) => ({
  type: 'layout',
  id: '{{name}}',
  name: '{{title}}',
  component: ({ primaryKey, fields, items, loading, options, onOptionsChange, onOpen }: LayoutProps) => {
    const titleField = options.titleField ?? fields.find((field) => field.type === 'string')?.field ?? primaryKey;
    return (
      <div data-testid="{{name}}">
        <antd.Select value={titleField} style={{ minWidth: 200, marginBottom: 12 }} onChange={(next: string) => onOptionsChange({ ...options, titleField: next })} options={fields.map((field) => ({ value: field.field, label: field.field }))} />
        <antd.List
          loading={loading}
          grid={{ gutter: 12, column: 3 }}
          dataSource={items}
          renderItem={(item: Record<string, unknown>) => (
            <antd.List.Item>
              <antd.Card size="small" hoverable onClick={() => onOpen(item[primaryKey] as string | number)} data-testid="{{name}}-item">
                {String(item[titleField] ?? item[primaryKey])}
              </antd.Card>
            </antd.List.Item>
          )}
        />
      </div>
    );
  },
});
`;

const PANEL = `// A panel: a kind of Insights panel. The server computes nothing for it: it reads its data with the SDK,
// as the signed-in user. \`options\` lists its settings; the panel editor shows them as a form.
import type { Host } from './host.ts';

export default ({ React, antd, sdk }: Host) => ({
  type: 'panel',
  id: '{{name}}',
  name: '{{title}}',
  options: [
    { field: 'collection', name: 'Collection', type: 'collection', required: true },
    { field: 'label', name: 'Label', type: 'string' },
  ],
  defaultSize: { width: 6, height: 4 },
  component: ({ options }: { options: { collection?: string; label?: string } }) => {
    // Hooks run on every render, before any early return.
    const { items, loading, error } = sdk.useItems(options.collection || 'tessera_users', { limit: 100 });
    if (!options.collection) return <antd.Empty description="Choose a collection" />;
    if (error) return <antd.Alert type="warning" message={error} />;
    return (
      <div data-testid="{{name}}">
        <antd.Statistic loading={loading} title={options.label || options.collection} value={items.length} />
      </div>
    );
  },
});
`;

const MODULE = `// A module: a page of its own at /admin/modules/{{name}}, with a menu entry.
import type { Host } from './host.ts';

export default ({ React, antd, sdk }: Host) => {
  function Page() {
    const api = sdk.useApi();
    const [info, setInfo] = React.useState(null as { project?: { project_name?: string } } | null);
    React.useEffect(() => {
      void api.data<{ project?: { project_name?: string } }>('/server/info').then(setInfo);
    }, []);
    return (
      <div data-testid="{{name}}">
        <antd.Typography.Title level={3}>{'{{title}}'}</antd.Typography.Title>
        <antd.Typography.Paragraph>{info?.project?.project_name ?? ''}</antd.Typography.Paragraph>
      </div>
    );
  }
  return { type: 'module', id: '{{name}}', name: '{{title}}', component: Page };
};
`;

const starter = (index: string) => ({ 'src/index.tsx': index, 'src/host.ts': HOST });

/** Starters of the admin's kinds, by kind. */
export const APP_STARTERS: Record<'interface' | 'display' | 'layout' | 'panel' | 'module', Record<string, string>> = {
  interface: starter(INTERFACE),
  display: starter(DISPLAY),
  layout: starter(LAYOUT),
  panel: starter(PANEL),
  module: starter(MODULE),
};

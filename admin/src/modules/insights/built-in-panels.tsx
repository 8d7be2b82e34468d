import { panels, type PanelProps } from '../../extensions/kinds.ts';
import type { PanelResult } from './panel-results.ts';
import { DEFAULT_SIZE, PANEL_TYPES, type PanelType } from './panel-types.ts';
import { PanelView } from './panel-view.tsx';

/** A built-in panel type as a registry component: the server's result for it, drawn by PanelView. */
function builtInPanel(type: PanelType) {
  const BuiltInPanel = (props: PanelProps) => <PanelView {...props} type={type} result={props.result as PanelResult | undefined} />;
  BuiltInPanel.displayName = `Panel(${type})`;
  return BuiltInPanel;
}

// The built-in panel types enter the registry exactly as extensions' panels do (admin/src/extensions/kinds.ts).
for (const type of PANEL_TYPES) panels.register({ id: type, name: `insights.types.${type}`, builtIn: true, defaultSize: DEFAULT_SIZE[type], component: builtInPanel(type) });

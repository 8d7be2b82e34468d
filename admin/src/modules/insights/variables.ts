import { variableValue } from './panel-format.ts';
import type { PanelRecord } from './panel-types.ts';

/** The variable a variable panel sets, or null for other panels. */
export function variableName(panel: Pick<PanelRecord, 'type' | 'options'>): string | null {
  if (panel.type !== 'global-variable' && panel.type !== 'relational-variable') return null;
  const name = panel.options?.field;
  return typeof name === 'string' && name ? name : null;
}

/**
 * `variables` for `GET /dashboards/:id/data`: what the viewer chose in each variable panel, else a
 * global variable's default; typed as the panel says; unset variables are left out.
 */
export function dashboardVariables(panels: readonly Pick<PanelRecord, 'type' | 'options'>[], chosen: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const panel of panels) {
    const name = variableName(panel);
    if (!name) continue;
    const options = panel.options ?? {};
    const raw = name in chosen ? chosen[name] : panel.type === 'global-variable' ? options.defaultValue : undefined;
    const value = panel.type === 'global-variable' ? variableValue(typeof options.type === 'string' ? options.type : 'string', raw) : raw;
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) variables[name] = value;
  }
  return variables;
}

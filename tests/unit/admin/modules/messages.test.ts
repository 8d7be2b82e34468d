import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { accountMessages } from '../../../../admin/src/modules/account/messages.ts';
import { translationsMessages } from '../../../../admin/src/modules/translations/messages.ts';
import { notificationsMessages } from '../../../../admin/src/modules/notifications/messages.ts';
import { activityMessages } from '../../../../admin/src/modules/activity/messages.ts';
import { ACTIVITY_ACTIONS } from '../../../../admin/src/modules/activity/activity-links.ts';
import { FIELD_TYPES, GROUP_INTERFACES, INTERFACES_BY_TYPE, PRESENTATION_INTERFACES, TYPE_GROUPS } from '../../../../admin/src/modules/data-model/field-types.ts';
import { dataModelMessages } from '../../../../admin/src/modules/data-model/messages.ts';
import { RELATION_KINDS } from '../../../../admin/src/modules/data-model/relation-plan.ts';
import { BUILT_IN_DISPLAYS, DISPLAY_OPTIONS, INTERFACE_OPTIONS } from '../../../../admin/src/content/interfaces/interface-options.ts';
import { EXTENSION_SOURCES, EXTENSION_STATUSES } from '../../../../admin/src/modules/extensions/extension-rows.ts';
import { extensionsMessages } from '../../../../admin/src/modules/extensions/messages.ts';
import { EXTENSION_TYPES } from '../../../../server/extension-packages/manifest.ts';
import { filesMessages } from '../../../../admin/src/modules/files/messages.ts';
import { flowsMessages } from '../../../../admin/src/modules/flows/messages.ts';
import { insightsMessages } from '../../../../admin/src/modules/insights/messages.ts';
import { OPTION_FIELDS, choiceKey } from '../../../../admin/src/modules/insights/option-fields.ts';
import { PANEL_TYPES, RANGES, REFRESH_INTERVALS } from '../../../../admin/src/modules/insights/panel-types.ts';
import { FLOW_ACCOUNTABILITY, FLOW_TRIGGERS } from '../../../../admin/src/modules/flows/flow-options.ts';
import { OPERATION_TYPES } from '../../../../admin/src/modules/flows/operation-types.ts';
import { PERMISSION_ACTIONS } from '../../../../admin/src/modules/roles/permission-matrix.ts';
import { rolesMessages } from '../../../../admin/src/modules/roles/messages.ts';
import { ASSET_FITS, ASSET_TRANSFORMS, PASSWORD_POLICIES } from '../../../../admin/src/modules/settings/settings-rules.ts';
import { settingsMessages } from '../../../../admin/src/modules/settings/messages.ts';
import { sharedMessages, withShared } from '../../../../admin/src/modules/shared/messages.ts';
import { USER_STATUSES } from '../../../../admin/src/modules/users/user-options.ts';
import { usersMessages } from '../../../../admin/src/modules/users/messages.ts';
import { webhooksMessages } from '../../../../admin/src/modules/webhooks/messages.ts';
import { WEBHOOK_ACTIONS } from '../../../../admin/src/modules/webhooks/webhook-rules.ts';

const MODULES = { dataModel: dataModelMessages, files: filesMessages, roles: rolesMessages, users: usersMessages, settings: settingsMessages, activity: activityMessages, webhooks: webhooksMessages, flows: flowsMessages, account: accountMessages, translations: translationsMessages, notifications: notificationsMessages, insights: insightsMessages, extensions: extensionsMessages };
const MODULES_DIR = fileURLToPath(new URL('../../../../admin/src/modules/', import.meta.url));
const all = withShared(Object.values(MODULES).reduce((merged, messages) => ({ 'en-US': { ...merged['en-US'], ...messages['en-US'] }, 'pt-BR': { ...merged['pt-BR'], ...messages['pt-BR'] } }), { 'en-US': {}, 'pt-BR': {} }));

/** Every `translate('literal.key'` in the modules' screens. */
function literalKeys(): string[] {
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.tsx')) for (const match of readFileSync(file, 'utf8').matchAll(/translate\(\s*'([^']+)'/g)) keys.add(match[1]!);
    }
  };
  walk(MODULES_DIR);
  return [...keys];
}

describe('module messages', () => {
  it('have the same keys in en-US and pt-BR, each prefixed by its module, none left untranslated', () => {
    for (const [name, messages] of Object.entries({ ...MODULES, shared: sharedMessages })) {
      expect(Object.keys(messages['pt-BR']).sort(), name).toEqual(Object.keys(messages['en-US']).sort());
      for (const key of Object.keys(messages['en-US'])) expect(key.startsWith(`${name}.`), key).toBe(true);
      for (const [key, text] of Object.entries(messages['pt-BR'])) expect(text.trim(), key).not.toBe('');
    }
  });

  it('cover every literal key the screens use', () => {
    const missing = literalKeys().filter((key) => !(key in all['en-US']));
    expect(missing).toEqual([]);
  });

  it('cover the keys the screens build from lists', () => {
    const built = [
      ...FIELD_TYPES.map((type) => `dataModel.types.${type}`),
      ...TYPE_GROUPS.map((group) => `dataModel.typeGroups.${group.group}`),
      ...Object.values(INTERFACES_BY_TYPE).flat().map((name) => `dataModel.interfaces.${name}`),
      ...['integer', 'uuid', 'string'].map((kind) => `dataModel.create.primaryKey.${kind}`),
      ...RELATION_KINDS.flatMap((kind) => [`dataModel.relation.kind.${kind}`, `dataModel.relation.help.${kind}`]),
      ...['SET_NULL', 'CASCADE', 'NO_ACTION', 'RESTRICT'].map((action) => `dataModel.relation.onDelete.${action}`),
      ...['nullify', 'delete'].map((action) => `dataModel.relation.deselect.${action}`),
      ...['open', 'closed', 'locked'].map((state) => `dataModel.settings.collapse.${state}`),
      ...PERMISSION_ACTIONS.map((action) => `roles.actions.${action}`),
      ...FLOW_TRIGGERS.map((trigger) => `flows.triggers.${trigger}`),
      ...[...FLOW_ACCOUNTABILITY, 'none'].map((choice) => `flows.accountability.${choice}`),
      ...WEBHOOK_ACTIONS.map((action) => `webhooks.actions.${action}`),
      ...['queued', 'running', 'retrying'].map((state) => `webhooks.log.states.${state}`),
      ...['success', 'failed', 'errors.url', 'errors.headerName', 'errors.headerValue'].map((key) => `webhooks.${key.includes('.') ? key : `log.${key}`}`),
      ...['all', 'none', 'custom', 'default'].map((state) => `roles.matrix.state.${state}`),
      'roles.matrix.setNone', 'roles.matrix.setDefault',
      ...USER_STATUSES.map((status) => `users.status.${status}`),
      ...['auto', 'light', 'dark'].flatMap((value) => [`users.appearance.${value}`, `settings.appearance.${value}`]),
      ...ASSET_FITS.map((fit) => `settings.presets.fit.${fit}`),
      ...ASSET_TRANSFORMS.map((mode) => `settings.files.transform.${mode}`),
      ...PASSWORD_POLICIES.map((policy) => `settings.security.policy.${policy}`),
      ...['required', 'slug', 'oneOf', 'positiveInteger', 'positiveNumber', 'quality', 'duplicateKey', 'transforms', 'colour'].map((rule) => `settings.rules.${rule}`),
      ...ACTIVITY_ACTIONS.map((action) => `activity.actions.${action}`),
      ...['invalid', 'notObject'].map((key) => `shared.json.${key}`),
      ...['notObject', 'logicalList', 'unknownOperator', 'operatorWithoutField', 'badField', 'empty'].map((key) => `shared.filter.${key}`),
      ...Object.keys(OPERATION_TYPES).map((type) => `flows.operationTypes.${type}`),
      ...Object.values(OPERATION_TYPES).flat().map((option) => `flows.operationOptions.${option.name}`),
      ...['filter', 'action'].map((type) => `flows.eventTypes.${type}`),
      ...['both', 'item', 'collection'].map((where) => `flows.locations.${where}`),
      ...['string', 'text', 'integer', 'boolean'].map((type) => `flows.fieldTypes.${type}`),
      ...['queued', 'running', 'retrying'].map((state) => `flows.runs.states.${state}`),
      ...['resolved', 'rejected', 'logged'].map((status) => `flows.runs.statuses.${status}`),
      ...['resolve', 'reject'].flatMap((path) => [`flows.operations.${path}`, `flows.runs.stepStatus.${path}`]),
      ...PANEL_TYPES.map((type) => `insights.types.${type}`),
      ...Object.values(OPTION_FIELDS).flat().flatMap((field) => [`insights.options.${field.kind === 'variableName' ? 'variable' : field.key}`, ...(field.choices ?? []).map((choice) => choiceKey(field.key, choice))]),
      ...RANGES.map((range) => choiceKey('range', range)),
      ...REFRESH_INTERVALS.map((seconds) => `insights.toolbar.every.${seconds}`),
      ...[...EXTENSION_TYPES, 'unknown'].map((type) => `extensions.types.${type}`),
      ...EXTENSION_STATUSES.map((status) => `extensions.status.${status}`),
      ...EXTENSION_SOURCES.map((source) => `extensions.sources.${source}`),
      'extensions.enableFailed', 'extensions.disableFailed',
      ...[INTERFACE_OPTIONS, DISPLAY_OPTIONS].flatMap((specs) => Object.values(specs).flat()).flatMap((option) => [`dataModel.options.${option.field}`, ...(option.kind === 'select' ? option.values.map((value) => `dataModel.options.${option.field}.${value}`) : [])]),
      ...BUILT_IN_DISPLAYS.map((display) => `dataModel.displays.${display}`),
      ...[...GROUP_INTERFACES, ...PRESENTATION_INTERFACES].map((name) => `dataModel.interfaces.${name}`),
    ];
    expect(built.filter((key) => !(key in all['en-US']) || !(key in all['pt-BR']))).toEqual([]);
  });
});

import type { Kysely } from 'kysely';
import { checkPanelType, validatePanelOptions } from './panel-options.ts';

type Payload = Record<string, unknown>;

/**
 * Checks a tessera_panels write (INVALID_PAYLOAD naming `type` or `options.<key>`). An update that changes only
 * one of type and options is checked against each updated panel's stored other half.
 */
export async function validatePanelWrite(db: Kysely<any>, payload: Payload, mode: 'create' | 'update', keys: readonly (string | number)[]): Promise<Payload> {
  if (mode === 'create') {
    validatePanelOptions(payload.type, payload.options);
    return payload;
  }
  if (!('type' in payload) && !('options' in payload)) return payload;
  if ('type' in payload) checkPanelType(payload.type);
  if ('type' in payload && 'options' in payload) {
    validatePanelOptions(payload.type, payload.options);
    return payload;
  }
  if (keys.length === 0) return payload;
  const stored = await db.selectFrom('tessera_panels').select(['type', 'options']).where('id', 'in', keys.map(String)).execute();
  for (const panel of stored) validatePanelOptions(payload.type ?? panel.type, 'options' in payload ? payload.options : panel.options);
  return payload;
}

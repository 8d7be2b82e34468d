import * as yup from 'yup';
import { InvalidPayloadError } from '../../errors.ts';
import { validateAssetPresets } from '../../files/assets/asset-presets.ts';
import { BASEMAP_TYPES } from '../../schema/system/constants.ts';
import { validateDefaultLanguage, validateReportUrl } from './settings-text-rules.ts';
import { refuseInheritedNames } from '../../own-keys.ts';

const basemapSchema = yup
  .object({
    name: yup.string().strict().typeError('name must be a string').required('name is required'),
    type: yup.string().strict().oneOf([...BASEMAP_TYPES], `type must be one of: ${BASEMAP_TYPES.join(', ')}`),
    url: yup.string().strict().typeError('url must be a string').required('url is required'),
    tileSize: yup.number().strict().typeError('tileSize must be a number').integer('tileSize must be an integer').positive('tileSize must be positive').nullable(),
    attribution: yup.string().strict().typeError('attribution must be a string').nullable(),
  })
  .noUnknown(({ unknown }) => `unknown basemap field: ${unknown}`);

const aspectRatioSchema = yup
  .object({
    text: yup.string().strict().typeError('text must be a string').required('text is required'),
    value: yup.number().strict().typeError('value must be a number').required('value is required').positive('value must be positive'),
  })
  .noUnknown(({ unknown }) => `unknown aspect ratio field: ${unknown}`);

/** Validates a JSON list setting entry by entry; 400 INVALID_PAYLOAD names the entry's path, e.g. `basemaps[1].url`. */
function validateList(field: string, value: unknown, schema: yup.AnyObjectSchema, defaults: Record<string, unknown> = {}): unknown[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new InvalidPayloadError(`${field} must be a list.`, { field });
  return value.map((entry, index) => {
    const path = `${field}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new InvalidPayloadError(`${path} must be an object.`, { field: path });
    refuseInheritedNames(entry, path);
    try {
      return schema.validateSync({ ...defaults, ...entry }, { abortEarly: true });
    } catch (error) {
      if (!(error instanceof yup.ValidationError)) throw error;
      throw new InvalidPayloadError(`${path}: ${error.message}.`, { field: error.path ? `${path}.${error.path}` : path });
    }
  });
}

/**
 * The SPEC §5 rules of a settings write that the column types cannot express: asset presets (key
 * required and slug-like; fit, width, height and quality non-nullable; quality 80 by default), basemaps
 * (name and url required, type raster, tile or style, tileSize a positive integer) and custom aspect
 * ratios (text and a positive number), default_language (a known language) and the report URLs (http(s)). Returns the payload to write, defaults filled.
 */
export function applySettingsRules(payload: Record<string, unknown>): Record<string, unknown> {
  const result = { ...payload };
  if ('storage_asset_presets' in payload) result.storage_asset_presets = validateAssetPresets(payload.storage_asset_presets);
  if ('basemaps' in payload) result.basemaps = validateList('basemaps', payload.basemaps, basemapSchema, { type: 'raster' });
  if ('custom_aspect_ratios' in payload) result.custom_aspect_ratios = validateList('custom_aspect_ratios', payload.custom_aspect_ratios, aspectRatioSchema);
  if ('default_language' in payload) result.default_language = validateDefaultLanguage(payload.default_language);
  for (const field of ['report_bug_url', 'report_feature_url', 'report_error_url']) {
    if (field in payload) result[field] = validateReportUrl(field, payload[field], field === 'report_error_url');
  }
  return result;
}

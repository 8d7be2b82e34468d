import * as yup from 'yup';
import { InvalidPayloadError } from '../../errors.ts';
import { ASSET_FITS, ASSET_FORMATS, ASSET_PRESET_QUALITY } from '../../schema/system/constants.ts';
import { parseOperations, type TransformRequest } from './transform-params.ts';
import { refuseInheritedNames } from '../../own-keys.ts';

/** A preset of settings.storage_asset_presets, validated. */
export interface AssetPreset extends TransformRequest {
  key: string;
}

const SLUG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

const presetSchema = yup
  .object({
    key: yup.string().strict().required('key is required').matches(SLUG, 'key must be slug-like (lowercase letters, digits, - and _)'),
    fit: yup.string().strict().nonNullable('fit can\'t be null').oneOf([...ASSET_FITS], `fit must be one of: ${ASSET_FITS.join(', ')}`).default('cover'),
    width: yup.number().strict().nonNullable('width can\'t be null').integer('width must be an integer').positive('width must be positive').optional(),
    height: yup.number().strict().nonNullable('height can\'t be null').integer('height must be an integer').positive('height must be positive').optional(),
    quality: yup
      .number()
      .strict()
      .nonNullable('quality can\'t be null')
      .integer('quality must be an integer')
      .min(ASSET_PRESET_QUALITY.min, `quality must be at least ${ASSET_PRESET_QUALITY.min}`)
      .max(ASSET_PRESET_QUALITY.max, `quality must be at most ${ASSET_PRESET_QUALITY.max}`)
      .default(ASSET_PRESET_QUALITY.default),
    withoutEnlargement: yup.boolean().strict().nullable(),
    format: yup.string().strict().nullable().oneOf([...ASSET_FORMATS, null], `format must be one of: ${ASSET_FORMATS.join(', ')}`),
    transforms: yup.mixed().nullable(),
  })
  .noUnknown(({ unknown }) => `unknown preset field${String(unknown).includes(',') ? 's' : ''}: ${unknown}`);

/**
 * Validates settings.storage_asset_presets (SPEC §5: key required and slug-like; fit, width, height and
 * quality non-nullable (width and height may be left out; fit defaults to cover); quality 0–100, default 80) and returns it with defaults filled. 400
 * INVALID_PAYLOAD names the preset's path, e.g. `storage_asset_presets[1].width`.
 */
export function validateAssetPresets(value: unknown): AssetPreset[] | null {
  const field = 'storage_asset_presets';
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new InvalidPayloadError(`${field} must be a list of presets.`, { field });
  const keys = new Set<string>();
  return value.map((entry, index) => {
    const path = `${field}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new InvalidPayloadError(`${path} must be an object.`, { field: path });
    refuseInheritedNames(entry, path);
    let preset: yup.InferType<typeof presetSchema>;
    try {
      preset = presetSchema.validateSync(entry, { abortEarly: true });
    } catch (error) {
      if (!(error instanceof yup.ValidationError)) throw error;
      const inner = error.path ? `${path}.${error.path}` : path;
      throw new InvalidPayloadError(`${path}: ${error.message}.`, { field: inner });
    }
    if (keys.has(preset.key)) throw new InvalidPayloadError(`${path}: key "${preset.key}" is used by another preset.`, { field: `${path}.key` });
    keys.add(preset.key);
    let transforms;
    try {
      transforms = preset.transforms === null || preset.transforms === undefined ? undefined : parseOperations(preset.transforms, `${path}.transforms`);
    } catch (error) {
      throw new InvalidPayloadError((error as Error).message, { field: `${path}.transforms` });
    }
    const result: AssetPreset = { key: preset.key, fit: (preset.fit ?? 'cover') as AssetPreset['fit'], quality: preset.quality ?? ASSET_PRESET_QUALITY.default };
    if (preset.width !== undefined) result.width = preset.width;
    if (preset.height !== undefined) result.height = preset.height;
    if (typeof preset.withoutEnlargement === 'boolean') result.withoutEnlargement = preset.withoutEnlargement;
    if (preset.format) result.format = preset.format as AssetPreset['format'];
    if (transforms) result.transforms = transforms;
    return result;
  });
}

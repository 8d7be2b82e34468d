import { IllegalAssetTransformationError, InvalidQueryError } from '../../errors.ts';
import type { AssetTransformMode } from '../../schema/system/constants.ts';
import { validateAssetPresets, type AssetPreset } from './asset-presets.ts';
import { outputFormat, type OutputFormat } from './negotiate-format.ts';
import { isEmptyRequest, parseTransformRequest, TRANSFORM_PARAMS, type TransformOperation, type TransformRequest } from './transform-params.ts';

/** A transformation with every choice made: what the cache key is computed from. */
export interface Transform {
  width: number | null;
  height: number | null;
  fit: 'contain' | 'cover' | 'inside' | 'outside';
  quality: number;
  withoutEnlargement: boolean;
  format: OutputFormat;
  transforms: TransformOperation[];
  /** Focal point (in source pixels) a cover crop centres on, when the file has one. */
  focal: { x: number; y: number } | null;
}

/** The asset settings that decide which transformations may run. */
export interface AssetSettings {
  mode: AssetTransformMode;
  presets: AssetPreset[];
}

/** The file facts a transformation depends on. */
export interface TransformSource {
  type: string;
  focalPointX: number | null;
  focalPointY: number | null;
}

/** Reads settings.storage_asset_transform and storage_asset_presets (presets were validated when saved). */
export function assetSettings(row: { storage_asset_transform?: unknown; storage_asset_presets?: unknown } | undefined): AssetSettings {
  const mode = (row?.storage_asset_transform as AssetTransformMode | undefined) ?? 'all';
  let presets: AssetPreset[] = [];
  try {
    presets = validateAssetPresets(row?.storage_asset_presets) ?? [];
  } catch {
    // Presets saved before validation existed: unusable ones are ignored rather than failing every asset.
  }
  return { mode, presets };
}

/**
 * Decides what an asset request gets: null for the original, or a complete Transform. Enforces the
 * project's policy (`all`: anything; `presets`: only `key`; `none`: nothing) and the size cap.
 */
export function resolveTransform(query: Record<string, unknown>, settings: AssetSettings, source: TransformSource, accept: string, maxDimension: number): Transform | null {
  const key = query.key;
  const given = TRANSFORM_PARAMS.filter((param) => query[param] !== undefined);
  if (key !== undefined && key !== '') {
    if (typeof key !== 'string') throw new InvalidQueryError('"key" must be a preset key.', { field: 'key' });
    if (given.length > 0) throw new InvalidQueryError(`"key" can't be combined with other transformation parameters (${given.join(', ')}).`, { field: 'key' });
    if (settings.mode === 'none') throw new IllegalAssetTransformationError('Asset transformations are disabled for this project.', { field: 'key' });
    const preset = settings.presets.find((candidate) => candidate.key === key);
    if (!preset) throw new InvalidQueryError(`There is no asset preset "${key}".`, { field: 'key' });
    return complete(preset, source, accept, maxDimension);
  }
  const request = parseTransformRequest(query);
  if (isEmptyRequest(request)) return null;
  if (settings.mode !== 'all') {
    throw new IllegalAssetTransformationError(settings.mode === 'none' ? 'Asset transformations are disabled for this project.' : 'Only the asset presets of this project can be used (?key=).', { field: given[0] });
  }
  return complete(request, source, accept, maxDimension);
}

function complete(request: TransformRequest, source: TransformSource, accept: string, maxDimension: number): Transform {
  for (const side of ['width', 'height'] as const) {
    const value = request[side];
    if (value !== undefined && value > maxDimension) throw new IllegalAssetTransformationError(`"${side}" can be at most ${maxDimension} pixels.`, { field: side, limit: maxDimension });
  }
  const fit = request.fit ?? 'cover';
  const width = request.width ?? null;
  const height = request.height ?? null;
  const hasFocalPoint = source.focalPointX !== null && source.focalPointY !== null;
  return {
    width,
    height,
    fit,
    quality: request.quality ?? 80,
    withoutEnlargement: request.withoutEnlargement ?? false,
    format: outputFormat(request.format, source.type, accept, request.format === undefined || request.format === 'auto'),
    transforms: request.transforms ?? [],
    focal: fit === 'cover' && width !== null && height !== null && hasFocalPoint ? { x: source.focalPointX!, y: source.focalPointY! } : null,
  };
}

import { InvalidQueryError } from '../../errors.ts';
import { ASSET_FITS, ASSET_FORMATS, type AssetFit, type AssetFormat } from '../../schema/system/constants.ts';

/** One sharp operation of `transforms`: its name and arguments. */
export type TransformOperation = [string, ...unknown[]];

/** What a request (or a preset) asks of an image; every property optional. */
export interface TransformRequest {
  width?: number;
  height?: number;
  fit?: AssetFit;
  quality?: number;
  withoutEnlargement?: boolean;
  format?: AssetFormat;
  transforms?: TransformOperation[];
}

/** sharp operations `transforms` may use: none of them can make an image larger than the cap allows. */
export const ALLOWED_OPERATIONS = new Set(['rotate', 'flip', 'flop', 'blur', 'sharpen', 'median', 'grayscale', 'greyscale', 'negate', 'normalise', 'normalize', 'tint', 'flatten', 'gamma', 'modulate', 'threshold', 'trim', 'linear', 'recomb', 'clahe']);
const MAX_OPERATIONS = 20;

/** The query parameters an asset request may carry. */
export const TRANSFORM_PARAMS = ['width', 'height', 'fit', 'quality', 'withoutEnlargement', 'format', 'transforms'] as const;

function bad(field: string, message: string, ErrorClass: new (message: string, extensions: { field: string }) => Error = InvalidQueryError): never {
  throw new ErrorClass(message, { field });
}

function positiveInteger(field: string, value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1) bad(field, `"${field}" must be a positive integer.`);
  return number;
}

function isPlainValue(value: unknown): boolean {
  if (value === null || ['number', 'string', 'boolean'].includes(typeof value)) return typeof value !== 'number' || Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainValue);
  if (typeof value === 'object') return Object.entries(value as object).every(([key, inner]) => !['__proto__', 'constructor', 'prototype'].includes(key) && isPlainValue(inner));
  return false;
}

/** Validates `transforms`: a JSON list of `[operation, ...arguments]` with allow-listed operations. */
export function parseOperations(value: unknown, field = 'transforms'): TransformOperation[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      bad(field, `"${field}" must be a JSON list such as [["blur", 4], ["rotate", 90]].`);
    }
  }
  if (!Array.isArray(list)) bad(field, `"${field}" must be a JSON list such as [["blur", 4], ["rotate", 90]].`);
  if (list.length > MAX_OPERATIONS) bad(field, `"${field}" may list at most ${MAX_OPERATIONS} operations.`);
  return list.map((entry) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') bad(field, `Each entry of "${field}" must be a list: [operation, ...arguments].`);
    const [operation, ...args] = entry as [string, ...unknown[]];
    if (!ALLOWED_OPERATIONS.has(operation)) bad(field, `"${operation}" is not an allowed operation; use one of: ${[...ALLOWED_OPERATIONS].join(', ')}.`);
    if (!args.every(isPlainValue)) bad(field, `The arguments of "${operation}" must be JSON values.`);
    return [operation, ...args] as TransformOperation;
  });
}

/**
 * Reads and validates transformation values from a query string or a preset (400 INVALID_QUERY naming the
 * parameter). Absent values stay absent, so a preset and the defaults can fill them.
 */
export function parseTransformRequest(source: Record<string, unknown>): TransformRequest {
  const request: TransformRequest = {};
  if (source.width !== undefined && source.width !== null) request.width = positiveInteger('width', source.width);
  if (source.height !== undefined && source.height !== null) request.height = positiveInteger('height', source.height);
  if (source.fit !== undefined && source.fit !== null) {
    if (!(ASSET_FITS as readonly unknown[]).includes(source.fit)) bad('fit', `"fit" must be one of: ${ASSET_FITS.join(', ')}.`);
    request.fit = source.fit as AssetFit;
  }
  if (source.quality !== undefined && source.quality !== null) {
    const quality = typeof source.quality === 'number' ? source.quality : typeof source.quality === 'string' && /^\d+$/.test(source.quality) ? Number(source.quality) : Number.NaN;
    if (!Number.isInteger(quality) || quality < 0 || quality > 100) bad('quality', '"quality" must be an integer from 0 to 100.');
    request.quality = quality;
  }
  if (source.withoutEnlargement !== undefined && source.withoutEnlargement !== null) {
    const value = source.withoutEnlargement;
    if (value === true || value === 'true' || value === '') request.withoutEnlargement = true;
    else if (value === false || value === 'false') request.withoutEnlargement = false;
    else bad('withoutEnlargement', '"withoutEnlargement" must be true or false.');
  }
  if (source.format !== undefined && source.format !== null) {
    if (!(ASSET_FORMATS as readonly unknown[]).includes(source.format)) bad('format', `"format" must be one of: ${ASSET_FORMATS.join(', ')}.`);
    request.format = source.format as AssetFormat;
  }
  if (source.transforms !== undefined && source.transforms !== null) request.transforms = parseOperations(source.transforms);
  return request;
}

/** True when the request asks for no change at all. */
export function isEmptyRequest(request: TransformRequest): boolean {
  return Object.keys(request).length === 0;
}

import type { Sharp } from 'sharp';
import { IllegalAssetTransformationError, ServiceUnavailableError } from '../../errors.ts';
import { loadSharp } from '../sharp-module.ts';
import type { Transform } from './transform-policy.ts';

/** Limits every transformation runs under. */
export interface TransformLimits {
  maxDimension: number;
  timeoutMs: number;
}

/** A transformed image. */
export interface TransformResult {
  data: Buffer;
  width: number;
  height: number;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/**
 * A cover crop centred on the focal point (as near as the image allows): scale so both sides cover the
 * box, then cut the box around the scaled focal point. Null when sharp's own crop applies.
 */
function focalCrop(transform: Transform, sourceWidth: number, sourceHeight: number) {
  const { width, height, focal } = transform;
  if (!focal || width === null || height === null) return null;
  const scale = Math.max(width / sourceWidth, height / sourceHeight);
  if (scale > 1 && transform.withoutEnlargement) return null;
  const scaledWidth = Math.max(width, Math.round(sourceWidth * scale));
  const scaledHeight = Math.max(height, Math.round(sourceHeight * scale));
  return {
    scaledWidth,
    scaledHeight,
    left: clamp(Math.round(focal.x * scale - width / 2), 0, scaledWidth - width),
    top: clamp(Math.round(focal.y * scale - height / 2), 0, scaledHeight - height),
    width,
    height,
  };
}

function applyOperations(pipeline: Sharp, transform: Transform): Sharp {
  for (const [operation, ...args] of transform.transforms) {
    const method = (pipeline as unknown as Record<string, (...values: unknown[]) => Sharp>)[operation];
    pipeline = method!.apply(pipeline, args);
  }
  return pipeline;
}

function encode(pipeline: Sharp, transform: Transform): Sharp {
  const quality = transform.quality;
  switch (transform.format) {
    case 'jpeg':
      return pipeline.jpeg({ quality, mozjpeg: false });
    case 'png':
      // PNG is lossless: quality only matters for palette output, so keep it full-colour.
      return pipeline.png();
    case 'webp':
      return pipeline.webp({ quality });
    case 'avif':
      return pipeline.avif({ quality, effort: 2 });
    case 'tiff':
      return pipeline.tiff({ quality });
    case 'gif':
      return pipeline.gif();
  }
}

/**
 * Runs a transformation with sharp: auto-orient, resize (focal-point aware for cover), the allow-listed
 * operations, then encoding. Input larger than the pixel cap, an output larger than the size cap, bad
 * operation arguments are 400 ILLEGAL_ASSET_TRANSFORMATION, a timeout 503 (transformFailure).
 */
export async function runTransform(input: string | Buffer, transform: Transform, source: { width: number | null; height: number | null }, limits: TransformLimits): Promise<TransformResult> {
  const sharp = await loadSharp();
  try {
    let pipeline = sharp(input, { limitInputPixels: limits.maxDimension ** 2, failOn: 'error' }).timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) }).autoOrient();
    const crop = source.width && source.height ? focalCrop(transform, source.width, source.height) : null;
    if (crop) {
      // sharp applies an extract after a resize to the resized image.
      pipeline = pipeline.resize(crop.scaledWidth, crop.scaledHeight, { fit: 'fill' }).extract({ left: crop.left, top: crop.top, width: crop.width, height: crop.height });
    } else if (transform.width !== null || transform.height !== null) {
      pipeline = pipeline.resize(transform.width, transform.height, { fit: transform.fit, withoutEnlargement: transform.withoutEnlargement });
    }
    pipeline = encode(applyOperations(pipeline, transform), transform);
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    if (info.width > limits.maxDimension || info.height > limits.maxDimension) {
      throw new IllegalAssetTransformationError(`The result would be ${info.width}×${info.height} pixels; at most ${limits.maxDimension} per side are allowed.`, { limit: limits.maxDimension });
    }
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw transformFailure(error);
  }
}

/**
 * The client error for a failed transformation: running past ASSETS_TRANSFORM_TIMEOUT (libvips reports
 * `timeout: N% complete`) depends on the server's load, not on the request, so it is 503 with Retry-After,
 * as Directus answers it; anything else is 400 ILLEGAL_ASSET_TRANSFORMATION.
 */
export function transformFailure(error: unknown): IllegalAssetTransformationError | ServiceUnavailableError {
  if (error instanceof IllegalAssetTransformationError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/^timeout: /.test(message)) return new ServiceUnavailableError('Service "assets" is unavailable. Transformation timed out.', { service: 'assets', retryAfter: 1 });
  return new IllegalAssetTransformationError(`The image could not be transformed: ${message}`);
}

import type { Sharp } from 'sharp';
import * as yup from 'yup';
import { InvalidPayloadError } from '../../errors.ts';
import { loadSharp } from '../sharp-module.ts';

/** Output formats the editor writes. */
export type EditableFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'tiff';

/** Image types the editor writes back in their own format (animated GIFs and SVGs would lose what they are). */
export const EDITABLE_IMAGE_TYPES: Readonly<Record<string, EditableFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
};

const whole = (field: string, min: number) => yup.number().typeError(`"${field}" must be a number.`).integer(`"${field}" must be a whole number of pixels.`).min(min, `"${field}" must be at least ${min}.`);

/** The body of POST /files/:id/edit. Steps run in this order: flip, flop, rotate, crop (on the rotated image). */
export const imageEditSchema = yup
  .object({
    rotate: yup.number().typeError('"rotate" must be 0, 90, 180 or 270.').oneOf([0, 90, 180, 270], '"rotate" must be 0, 90, 180 or 270.').default(0),
    flip: yup.boolean().typeError('"flip" must be true or false.').default(false),
    flop: yup.boolean().typeError('"flop" must be true or false.').default(false),
    crop: yup
      .object({
        left: whole('crop.left', 0).required('"crop.left" is required.'),
        top: whole('crop.top', 0).required('"crop.top" is required.'),
        width: whole('crop.width', 1).required('"crop.width" is required.'),
        height: whole('crop.height', 1).required('"crop.height" is required.'),
      })
      .noUnknown('"crop" takes left, top, width and height.')
      .nullable()
      .default(null),
    focal_point_x: whole('focal_point_x', 0).nullable(),
    focal_point_y: whole('focal_point_y', 0).nullable(),
  })
  .noUnknown('The edit takes rotate, flip, flop, crop, focal_point_x and focal_point_y.');

/** A validated edit. */
export type ImageEdit = yup.InferType<typeof imageEditSchema>;

/** The edited image. */
export interface EditedImage {
  data: Buffer;
  width: number;
  height: number;
}

/** A point in an image, in pixels from its top left corner. */
export interface Point {
  x: number;
  y: number;
}

/** True when the edit changes the pixels (not only the focal point). */
export function changesPixels(edit: ImageEdit): boolean {
  return edit.rotate !== 0 || edit.flip || edit.flop || edit.crop !== null;
}

/**
 * Where a point of the original (width × height, upright) lands after the edit, or null when the crop
 * cuts it away: the focal point follows the picture when only the geometry changes.
 */
export function mapPoint(point: Point, size: { width: number; height: number }, edit: ImageEdit): Point | null {
  let { x, y } = point;
  const { width, height } = size;
  if (edit.flip) y = height - y;
  if (edit.flop) x = width - x;
  if (edit.rotate === 90) [x, y] = [height - y, x];
  else if (edit.rotate === 180) [x, y] = [width - x, height - y];
  else if (edit.rotate === 270) [x, y] = [y, width - x];
  if (edit.crop) {
    x -= edit.crop.left;
    y -= edit.crop.top;
    if (x < 0 || y < 0 || x > edit.crop.width || y > edit.crop.height) return null;
  }
  return { x: Math.round(x), y: Math.round(y) };
}

/**
 * Applies an edit with sharp: upright by EXIF orientation (as browsers and /assets show it), flip
 * (vertical), flop (horizontal), rotate clockwise, then crop a rectangle of the rotated image; encoded in
 * the original format. Two passes, so the crop is always measured on the rotated picture the editor showed.
 */
export async function editImage(input: Buffer, format: EditableFormat, edit: ImageEdit, limits: { maxDimension: number }): Promise<EditedImage> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: limits.maxDimension ** 2, failOn: 'error' as const };
  let oriented = sharp(input, options).autoOrient();
  if (edit.flip) oriented = oriented.flip();
  if (edit.flop) oriented = oriented.flop();
  if (edit.rotate !== 0) oriented = oriented.rotate(edit.rotate);
  const turned = await oriented.toBuffer({ resolveWithObject: true });
  let output = sharp(turned.data, options);
  if (edit.crop) {
    const { left, top, width, height } = edit.crop;
    if (left + width > turned.info.width) throw new InvalidPayloadError(`"crop" reaches past the image: left + width must be at most ${turned.info.width}.`, { field: 'crop.width' });
    if (top + height > turned.info.height) throw new InvalidPayloadError(`"crop" reaches past the image: top + height must be at most ${turned.info.height}.`, { field: 'crop.height' });
    output = output.extract({ left, top, width, height });
  }
  const { data, info } = await encode(output, format).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function encode(pipeline: Sharp, format: EditableFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: 92 });
    case 'webp':
      return pipeline.webp({ quality: 92 });
    case 'avif':
      return pipeline.avif({ quality: 70, effort: 2 });
    case 'png':
      return pipeline.png();
    case 'tiff':
      return pipeline.tiff();
  }
}

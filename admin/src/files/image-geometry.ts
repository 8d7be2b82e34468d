/**
 * The image editor's geometry, in the server's terms (POST /files/:id/edit): flip (top to bottom) and
 * flop (left to right) happen first, then a clockwise quarter-turn rotation, then the crop, measured in
 * pixels of the rotated picture.
 */
export interface Orientation {
  rotate: 0 | 90 | 180 | 270;
  flip: boolean;
  flop: boolean;
}

/** A crop in percent of the shown (rotated) picture, as react-image-crop gives it. */
export interface PercentRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The size of the picture once oriented. */
export function orientedSize(size: { width: number; height: number }, orientation: Orientation): { width: number; height: number } {
  return orientation.rotate % 180 === 0 ? size : { width: size.height, height: size.width };
}

/** A quarter turn clockwise (+1) or counter-clockwise (-1). */
export function turn(orientation: Orientation, direction: 1 | -1): Orientation {
  return { ...orientation, rotate: (((orientation.rotate + direction * 90) % 360) + 360) % 360 as Orientation['rotate'] };
}

/**
 * Mirrors what the user sees left to right ('horizontal') or top to bottom ('vertical'). The server flips
 * before it rotates, so on a picture turned a quarter a mirror on screen is the other flip of the original.
 */
export function mirror(orientation: Orientation, axis: 'horizontal' | 'vertical'): Orientation {
  const sideways = orientation.rotate % 180 !== 0;
  const flop = (axis === 'horizontal') !== sideways;
  return flop ? { ...orientation, flop: !orientation.flop } : { ...orientation, flip: !orientation.flip };
}

/** The crop in whole pixels of a picture of `size`, kept inside it; null when it is (almost) the whole picture. */
export function pixelCrop(rect: PercentRect | null, size: { width: number; height: number }): { left: number; top: number; width: number; height: number } | null {
  if (!rect || rect.width <= 0 || rect.height <= 0) return null;
  const left = Math.min(size.width - 1, Math.max(0, Math.round((rect.x * size.width) / 100)));
  const top = Math.min(size.height - 1, Math.max(0, Math.round((rect.y * size.height) / 100)));
  const width = Math.max(1, Math.min(size.width - left, Math.round((rect.width * size.width) / 100)));
  const height = Math.max(1, Math.min(size.height - top, Math.round((rect.height * size.height) / 100)));
  if (left === 0 && top === 0 && width === size.width && height === size.height) return null;
  return { left, top, width, height };
}

/**
 * A focal point picked on the shown picture (percent) in pixels of the edited image: relative to the
 * crop, held inside it.
 */
export function focalInResult(point: { x: number; y: number }, size: { width: number; height: number }, crop: ReturnType<typeof pixelCrop>): { x: number; y: number } {
  const box = crop ?? { left: 0, top: 0, width: size.width, height: size.height };
  const x = Math.round((point.x * size.width) / 100) - box.left;
  const y = Math.round((point.y * size.height) / 100) - box.top;
  return { x: Math.min(box.width, Math.max(0, x)), y: Math.min(box.height, Math.max(0, y)) };
}

/** Draws `image` oriented onto `canvas` (flip/flop, then the rotation), sizing the canvas to match. */
export function drawOriented(canvas: HTMLCanvasElement, image: HTMLImageElement, orientation: Orientation): void {
  const source = { width: image.naturalWidth, height: image.naturalHeight };
  const size = orientedSize(source, orientation);
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d')!;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, size.width, size.height);
  // Transforms apply to the drawing last-called first: the mirror, then the turn, then the centring.
  context.translate(size.width / 2, size.height / 2);
  context.rotate((orientation.rotate * Math.PI) / 180);
  context.scale(orientation.flop ? -1 : 1, orientation.flip ? -1 : 1);
  context.drawImage(image, -source.width / 2, -source.height / 2);
}

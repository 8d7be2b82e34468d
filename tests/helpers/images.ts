import sharp from 'sharp';

/** A solid-colour PNG of the given size. */
export function pngImage(width: number, height: number, colour = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

/** A JPEG with EXIF (camera make, model, copyright, orientation) and an sRGB ICC profile. */
export function jpegWithExif(width: number, height: number, exif: Record<string, string> = { Make: 'Tessera Optics', Model: 'T-1', Copyright: 'Test Photographer' }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } }).jpeg().withExif({ IFD0: exif }).withIccProfile('srgb').toBuffer();
}

/**
 * A PNG whose left half is red and right half blue: a crop shows which side was kept (focal points).
 */
export async function twoColourImage(width: number, height: number): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const right = await sharp({ create: { width: width - half, height, channels: 3, background: '#0000ff' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .composite([{ input: right, left: half, top: 0 }])
    .png()
    .toBuffer();
}

/** The first bytes of an image, as an interrupted upload would leave it. */
export function truncated(image: Buffer, fraction = 0.6): Buffer {
  return image.subarray(0, Math.floor(image.length * fraction));
}

/** The RGB of the pixel at (x, y) of an encoded image. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
}

/** An animated GIF of three 20×20 frames shown for 100, 200 and 300 ms. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((colour) => sharp({ create: { width: 20, height: 20, channels: 3, background: colour } }).png().toBuffer()));
  return sharp(frames, { join: { animated: true } }).gif({ delay: [100, 200, 300] }).toBuffer();
}

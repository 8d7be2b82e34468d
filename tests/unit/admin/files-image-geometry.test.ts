import { describe, expect, it } from 'vitest';
import { focalInResult, mirror, orientedSize, pixelCrop, turn, type Orientation } from '../../../admin/src/files/image-geometry.ts';
import { mapPoint } from '../../../server/files/edit/edit-image.ts';

const UPRIGHT: Orientation = { rotate: 0, flip: false, flop: false };

describe('image editor geometry', () => {
  it('turns by quarters both ways and swaps the sides on a quarter turn', () => {
    expect(turn(UPRIGHT, 1).rotate).toBe(90);
    expect(turn(UPRIGHT, -1).rotate).toBe(270);
    expect(turn(turn(turn(turn(UPRIGHT, 1), 1), 1), 1).rotate).toBe(0);
    expect(orientedSize({ width: 400, height: 200 }, turn(UPRIGHT, 1))).toEqual({ width: 200, height: 400 });
    expect(orientedSize({ width: 400, height: 200 }, { ...UPRIGHT, rotate: 180 })).toEqual({ width: 400, height: 200 });
  });

  it('mirrors what is on screen: on a quarter-turned picture a left-right mirror is the original’s top-bottom flip', () => {
    expect(mirror(UPRIGHT, 'horizontal')).toEqual({ rotate: 0, flip: false, flop: true });
    expect(mirror(UPRIGHT, 'vertical')).toEqual({ rotate: 0, flip: true, flop: false });
    expect(mirror({ ...UPRIGHT, rotate: 90 }, 'horizontal')).toEqual({ rotate: 90, flip: true, flop: false });
    // Same as the server: a screen point mirrored left-right after a turn lands where the edit puts it.
    const size = { width: 80, height: 40 };
    const turned = mapPoint({ x: 10, y: 5 }, size, { rotate: 90, flip: false, flop: false, crop: null });
    const mirrored = mapPoint({ x: 10, y: 5 }, size, { ...mirror({ ...UPRIGHT, rotate: 90 }, 'horizontal'), crop: null });
    expect(mirrored).toEqual({ x: 40 - turned!.x, y: turned!.y });
  });

  it('turns a percent crop into whole pixels inside the picture, and no crop for the whole picture', () => {
    expect(pixelCrop({ x: 0, y: 41.6667, width: 100, height: 16.6667 }, { width: 200, height: 400 })).toEqual({ left: 0, top: 167, width: 200, height: 67 });
    expect(pixelCrop({ x: 0, y: 0, width: 100, height: 100 }, { width: 200, height: 400 })).toBeNull();
    expect(pixelCrop({ x: 90, y: 90, width: 20, height: 20 }, { width: 100, height: 100 })).toEqual({ left: 90, top: 90, width: 10, height: 10 });
    expect(pixelCrop(null, { width: 100, height: 100 })).toBeNull();
  });

  it('places a picked focal point in the cropped result, held inside it', () => {
    expect(focalInResult({ x: 75, y: 50 }, { width: 200, height: 400 }, { left: 0, top: 167, width: 200, height: 67 })).toEqual({ x: 150, y: 33 });
    expect(focalInResult({ x: 10, y: 10 }, { width: 200, height: 400 }, { left: 50, top: 100, width: 50, height: 50 })).toEqual({ x: 0, y: 0 });
    expect(focalInResult({ x: 50, y: 50 }, { width: 200, height: 100 }, null)).toEqual({ x: 100, y: 50 });
  });
});

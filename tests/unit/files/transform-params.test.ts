import { describe, expect, it } from 'vitest';
import { outputFormat } from '../../../server/files/assets/negotiate-format.ts';
import { transformFailure } from '../../../server/files/assets/run-transform.ts';
import { IllegalAssetTransformationError, ServiceUnavailableError } from '../../../server/errors.ts';
import { parseOperations, parseTransformRequest } from '../../../server/files/assets/transform-params.ts';
import { assetSettings, resolveTransform } from '../../../server/files/assets/transform-policy.ts';

const source = { type: 'image/png', focalPointX: null, focalPointY: null };

describe('transformation parameters', () => {
  it('parses query values and keeps absent ones absent', () => {
    expect(parseTransformRequest({ width: '10', height: '20', fit: 'inside', quality: '0', withoutEnlargement: 'true', format: 'webp' })).toEqual({ width: 10, height: 20, fit: 'inside', quality: 0, withoutEnlargement: true, format: 'webp' });
    expect(parseTransformRequest({})).toEqual({});
  });

  it.each([
    [{ width: '0' }, 'width'],
    [{ height: '1.5' }, 'height'],
    [{ quality: '-1' }, 'quality'],
    [{ fit: 'fill' }, 'fit'],
    [{ format: 'gif' }, 'format'],
    [{ withoutEnlargement: 'maybe' }, 'withoutEnlargement'],
    [{ width: ['1', '2'] }, 'width'],
  ])('refuses %j naming %s', (query, field) => {
    expect(() => parseTransformRequest(query)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY', extensions: { field } }));
  });

  it('allows only listed sharp operations with JSON arguments', () => {
    expect(parseOperations('[["blur",3],["tint",{"r":255,"g":0,"b":0}]]')).toEqual([['blur', 3], ['tint', { r: 255, g: 0, b: 0 }]]);
    for (const bad of ['[["toFile","/etc/x"]]', '[["resize",9999]]', '[["composite",[]]]', '{"blur":1}', '[[1]]', `[${'["blur",1],'.repeat(20)}["blur",1]]`]) {
      expect(() => parseOperations(bad)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    }
    expect(() => parseOperations([['tint', { __proto__: { polluted: true }, constructor: 1 }]])).toThrow();
  });
});

describe('format negotiation', () => {
  it('prefers AVIF, then WebP, then the source format; explicit formats win', () => {
    expect(outputFormat(undefined, 'image/jpeg', 'image/avif,image/webp,*/*', true)).toBe('avif');
    expect(outputFormat('auto', 'image/jpeg', 'image/webp;q=0.9,*/*', true)).toBe('webp');
    expect(outputFormat('auto', 'image/jpeg', 'image/avif;q=0,*/*', true)).toBe('jpeg');
    expect(outputFormat(undefined, 'image/heic', '*/*', true)).toBe('png');
    expect(outputFormat('tiff', 'image/jpeg', 'image/avif', true)).toBe('tiff');
  });

  // Issue 31, item 9: Directus's format=auto without an Accept naming AVIF or WebP.
  it('turns an AVIF, WebP or TIFF source into PNG for an explicit auto the client did not accept; keeps it otherwise', () => {
    expect(outputFormat('auto', 'image/avif', '', true)).toBe('png');
    expect(outputFormat('auto', 'image/webp', '*/*', true)).toBe('png');
    expect(outputFormat('auto', 'image/tiff', 'image/*', true)).toBe('png');
    expect(outputFormat('auto', 'image/avif', 'image/avif', true)).toBe('avif');
    expect(outputFormat('auto', 'image/png', '', true)).toBe('png');
    expect(outputFormat('auto', 'image/jpeg', '', true)).toBe('jpeg');
    expect(outputFormat(undefined, 'image/avif', '', true)).toBe('avif');
  });
});

describe('transform policy', () => {
  const settings = assetSettings({ storage_asset_transform: 'all', storage_asset_presets: [{ key: 'thumb', fit: 'contain', width: 64, height: 64 }] });

  it('completes requests with the defaults (cover, quality 80)', () => {
    expect(resolveTransform({ width: '100' }, settings, source, '', 500)).toMatchObject({ width: 100, height: null, fit: 'cover', quality: 80, withoutEnlargement: false, format: 'png', transforms: [], focal: null });
    expect(resolveTransform({}, settings, source, '', 500)).toBeNull();
  });

  it('uses the focal point only for cover crops with both sides', () => {
    const withFocus = { ...source, focalPointX: 5, focalPointY: 6 };
    expect(resolveTransform({ width: '10', height: '10' }, settings, withFocus, '', 500)?.focal).toEqual({ x: 5, y: 6 });
    expect(resolveTransform({ width: '10' }, settings, withFocus, '', 500)?.focal).toBeNull();
    expect(resolveTransform({ width: '10', height: '10', fit: 'contain' }, settings, withFocus, '', 500)?.focal).toBeNull();
  });

  it('applies presets and the project policy', () => {
    expect(resolveTransform({ key: 'thumb' }, settings, source, '', 500)).toMatchObject({ width: 64, height: 64, fit: 'contain', quality: 80 });
    expect(() => resolveTransform({ width: '10' }, { ...settings, mode: 'presets' }, source, '', 500)).toThrow(expect.objectContaining({ code: 'ILLEGAL_ASSET_TRANSFORMATION' }));
    expect(() => resolveTransform({ key: 'thumb' }, { ...settings, mode: 'none' }, source, '', 500)).toThrow(expect.objectContaining({ code: 'ILLEGAL_ASSET_TRANSFORMATION' }));
    expect(() => resolveTransform({ width: '501' }, settings, source, '', 500)).toThrow(expect.objectContaining({ code: 'ILLEGAL_ASSET_TRANSFORMATION', extensions: expect.objectContaining({ field: 'width' }) }));
  });
});

// Issue 31, item 9: a transformation past ASSETS_TRANSFORM_TIMEOUT is the server's load, not the request.
describe('transformation failures', () => {
  it('answers a libvips timeout with 503 and Retry-After, anything else with 400 ILLEGAL_ASSET_TRANSFORMATION', () => {
    const timedOut = transformFailure(new Error('timeout: 43% complete'));
    expect(timedOut).toBeInstanceOf(ServiceUnavailableError);
    expect([timedOut.message, timedOut.extensions]).toEqual(['Service "assets" is unavailable. Transformation timed out.', { service: 'assets', retryAfter: 1 }]);
    const broken = transformFailure(new Error('Input buffer contains unsupported image format'));
    expect(broken).toBeInstanceOf(IllegalAssetTransformationError);
    expect(broken.message).toBe('The image could not be transformed: Input buffer contains unsupported image format');
  });
});

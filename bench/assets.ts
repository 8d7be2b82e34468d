import sharp from 'sharp';
import type { Api } from './api.ts';
import type { Scenario } from './load.ts';

/** The benchmark's source image: a 1600×1200 photo-like JPEG (gaussian noise, so encoders have real work). */
export const BENCH_IMAGE = { width: 1600, height: 1200 } as const;

/** Uploads the source image through POST /files (multipart) and returns its id. */
export async function uploadBenchImage(api: Api): Promise<string> {
  const image = await sharp({ create: { ...BENCH_IMAGE, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const form = new FormData();
  form.append('title', 'Benchmark photo');
  form.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'bench-photo.jpg');
  const response = await fetch(`${api.base}/files`, { method: 'POST', headers: { Authorization: `Bearer ${api.token}` }, body: form });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /files answered ${response.status}: ${text.slice(0, 2000)}`);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}

/**
 * Asset scenarios: the original streamed from disk, a transformation served from the storage cache, and
 * transformations that are never cached yet (each request asks for a size and quality not asked before,
 * so every one decodes the 1600×1200 JPEG, resizes and encodes).
 */
export function assetScenarios(fileId: string): Scenario[] {
  let counter = 0;
  const uncached = () => {
    const n = counter++;
    // 1,000 widths × 50 qualities: 50,000 distinct transformations before one repeats.
    return { path: `/assets/${fileId}?width=${200 + (n % 1000)}&quality=${50 + (Math.floor(n / 1000) % 50)}&format=jpeg` };
  };
  return [
    { name: 'asset_original', kind: 'read', directus: null, method: 'GET', path: `/assets/${fileId}`, example: 'GET /assets/<id> (1600×1200 JPEG, ~1 MB, from local disk)' },
    {
      name: 'asset_cached',
      kind: 'read',
      directus: null,
      method: 'GET',
      path: `/assets/${fileId}?width=400&height=300&fit=cover&format=webp`,
      example: 'GET /assets/<id>?width=400&height=300&fit=cover&format=webp (served from the transform cache)',
    },
    {
      name: 'asset_uncached',
      kind: 'read',
      directus: null,
      method: 'GET',
      path: `/assets/${fileId}?width=200&quality=50&format=jpeg`,
      example: 'GET /assets/<id>?width=<new>&quality=<new>&format=jpeg (a transformation never asked before: decode, resize, encode, store)',
      next: uncached,
    },
  ];
}

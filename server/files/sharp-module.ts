import { lazyModule } from '../lazy-module.ts';

/** sharp (libvips, native) loads with the first image read or transformed, not at start-up. */
export const loadSharp = lazyModule(async () => (await import('sharp')).default);

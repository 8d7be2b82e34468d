import type { AdminModule } from '../app/module.ts';

/** Areas of the admin beyond sign-in and content, in menu order. */
export const modules: AdminModule[] = [];

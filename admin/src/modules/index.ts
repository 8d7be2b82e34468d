import type { AdminModule } from '../app/module.ts';
import { dataModelModule } from './data-model/module.tsx';

/** Areas of the admin beyond sign-in and content, in menu order. */
export const modules: AdminModule[] = [dataModelModule];

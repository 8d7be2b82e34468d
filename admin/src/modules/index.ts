import type { AdminModule } from '../app/module.ts';
import { accountModule } from './account/module.tsx';
import { activityModule } from './activity/module.tsx';
import { dataModelModule } from './data-model/module.tsx';
import { extensionsModule } from './extensions/module.tsx';
import { filesModule } from './files/module.tsx';
import { flowsModule } from './flows/module.tsx';
import { insightsModule } from './insights/module.tsx';
import { rolesModule } from './roles/module.tsx';
import { notificationsModule } from './notifications/module.tsx';
import { settingsModule } from './settings/module.tsx';
import { translationsModule } from './translations/module.tsx';
import { usersModule } from './users/module.tsx';
import { webhooksModule } from './webhooks/module.tsx';

/** Areas of the admin beyond sign-in and content, in menu order. */
export const modules: AdminModule[] = [filesModule, usersModule, rolesModule, dataModelModule, activityModule, webhooksModule, flowsModule, insightsModule, translationsModule, settingsModule, extensionsModule, accountModule, notificationsModule];

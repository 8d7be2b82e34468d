import type { AppContext } from '../../app-context.ts';
import { ExtensionItemsService, type ServiceOptions } from './items-facade.ts';
import { ExtensionMailService } from './mail-service.ts';
import { ExtensionCollectionsService, ExtensionFieldsService, ExtensionRelationsService } from './schema-services.ts';
import { ExtensionFilesService, ExtensionFoldersService, ExtensionVersionsService } from './system-services.ts';

export { ExtensionItemsService, type ServiceOptions } from './items-facade.ts';
export type { DirectusQuery, Item } from './items-facade.ts';
export { ExtensionMailService, type ExtensionMail } from './mail-service.ts';
export { ExtensionCollectionsService, ExtensionFieldsService, ExtensionRelationsService } from './schema-services.ts';
export { ExtensionFilesService, ExtensionFoldersService, ExtensionVersionsService } from './system-services.ts';

/** A service class over one system collection: `new UsersService({ schema, accountability, knex })`. */
export type SystemItemsServiceClass<T = ExtensionItemsService> = new (options?: ServiceOptions) => T;

/** The `services` of an extension's context: Directus's class names, each a facade over Tessera's services. */
export interface ExtensionServices {
  ItemsService: new (collection: string, options?: ServiceOptions) => ExtensionItemsService;
  UsersService: SystemItemsServiceClass;
  RolesService: SystemItemsServiceClass;
  PermissionsService: SystemItemsServiceClass;
  ActivityService: SystemItemsServiceClass;
  RevisionsService: SystemItemsServiceClass;
  NotificationsService: SystemItemsServiceClass;
  SettingsService: SystemItemsServiceClass;
  PresetsService: SystemItemsServiceClass;
  SharesService: SystemItemsServiceClass;
  FlowsService: SystemItemsServiceClass;
  OperationsService: SystemItemsServiceClass;
  DashboardsService: SystemItemsServiceClass;
  PanelsService: SystemItemsServiceClass;
  TranslationsService: SystemItemsServiceClass;
  WebhooksService: SystemItemsServiceClass;
  FilesService: SystemItemsServiceClass<ExtensionFilesService>;
  FoldersService: SystemItemsServiceClass<ExtensionFoldersService>;
  VersionsService: SystemItemsServiceClass<ExtensionVersionsService>;
  CollectionsService: SystemItemsServiceClass<ExtensionCollectionsService>;
  FieldsService: SystemItemsServiceClass<ExtensionFieldsService>;
  RelationsService: SystemItemsServiceClass<ExtensionRelationsService>;
  MailService: SystemItemsServiceClass<ExtensionMailService>;
}

/** Directus's service name → the system collection it serves (Directus's name). */
const COLLECTION_SERVICES = {
  UsersService: 'directus_users',
  RolesService: 'directus_roles',
  PermissionsService: 'directus_permissions',
  ActivityService: 'directus_activity',
  RevisionsService: 'directus_revisions',
  NotificationsService: 'directus_notifications',
  SettingsService: 'directus_settings',
  PresetsService: 'directus_presets',
  SharesService: 'directus_shares',
  FlowsService: 'directus_flows',
  OperationsService: 'directus_operations',
  DashboardsService: 'directus_dashboards',
  PanelsService: 'directus_panels',
  TranslationsService: 'directus_translations',
  WebhooksService: 'directus_webhooks',
} as const;

/** A class named `name` serving `collection`, bound to `app`. */
function collectionService(app: AppContext, name: string, collection: string): SystemItemsServiceClass {
  const service = class extends ExtensionItemsService {
    constructor(options: ServiceOptions = {}) {
      super(app, collection, options);
    }
  };
  // Extensions (and their error messages) see Directus's class names.
  Object.defineProperty(service, 'name', { value: name });
  return service;
}

/** A subclass of `base` whose constructor takes Directus's options alone, bound to `app`. */
function bound<T>(app: AppContext, name: string, base: new (app: AppContext, options?: ServiceOptions) => T): SystemItemsServiceClass<T> {
  const service = class extends (base as new (app: AppContext, options?: ServiceOptions) => object) {
    constructor(options: ServiceOptions = {}) {
      super(app, options);
    }
  };
  Object.defineProperty(service, 'name', { value: name });
  return service as unknown as SystemItemsServiceClass<T>;
}

/**
 * The service classes handed to extensions for `app`. Each is a thin facade over Tessera's own services,
 * so permissions, validation, events, activity and revisions apply to everything an extension does.
 */
export function createExtensionServices(app: AppContext): ExtensionServices {
  const ItemsService = class ItemsService extends ExtensionItemsService {
    constructor(collection: string, options: ServiceOptions = {}) {
      super(app, collection, options);
    }
  };
  const collections = Object.fromEntries(Object.entries(COLLECTION_SERVICES).map(([name, collection]) => [name, collectionService(app, name, collection)])) as Record<
    keyof typeof COLLECTION_SERVICES,
    SystemItemsServiceClass
  >;
  return {
    ItemsService,
    ...collections,
    FilesService: bound(app, 'FilesService', ExtensionFilesService),
    FoldersService: bound(app, 'FoldersService', ExtensionFoldersService),
    VersionsService: bound(app, 'VersionsService', ExtensionVersionsService),
    CollectionsService: bound(app, 'CollectionsService', ExtensionCollectionsService),
    FieldsService: bound(app, 'FieldsService', ExtensionFieldsService),
    RelationsService: bound(app, 'RelationsService', ExtensionRelationsService),
    MailService: bound(app, 'MailService', ExtensionMailService),
  };
}

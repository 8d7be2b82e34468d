import { Migration } from '@mikro-orm/migrations';

/**
 * The 24 system tables of SPEC.md §3 as frozen DDL, one statement per entry, in dependency order.
 * `tessera_migrations` is absent on purpose: MikroORM's migrator creates it before running this.
 */
export const SYSTEM_SCHEMA_SQL: readonly string[] = [
  `create table "tessera_collections" (
    "collection" varchar(64) not null,
    "icon" varchar(64) null,
    "note" text null,
    "display_template" varchar(255) null,
    "hidden" boolean not null default false,
    "singleton" boolean not null default false,
    "translations" jsonb null,
    "archive_field" varchar(64) null,
    "archive_app_filter" boolean not null default true,
    "archive_value" varchar(255) null,
    "unarchive_value" varchar(255) null,
    "sort_field" varchar(64) null,
    "accountability" varchar(255) null default 'all',
    "color" varchar(255) null,
    "item_duplication_fields" jsonb null,
    "sort" integer null,
    "group" varchar(64) null,
    "collapse" varchar(255) not null default 'open',
    "preview_url" varchar(255) null,
    "versioning" boolean not null default false,
    constraint "tessera_collections_pkey" primary key ("collection"),
    constraint "tessera_collections_accountability_check" check ("accountability" in ('all', 'activity')),
    constraint "tessera_collections_group_foreign" foreign key ("group")
      references "tessera_collections" ("collection") on update cascade on delete set null
  )`,
  `create index "tessera_collections_group_index" on "tessera_collections" ("group")`,

  `create table "tessera_fields" (
    "id" serial not null,
    "collection" varchar(64) not null,
    "field" varchar(64) not null,
    "special" text null,
    "interface" varchar(64) null,
    "options" jsonb null,
    "display" varchar(64) null,
    "display_options" jsonb null,
    "readonly" boolean not null default false,
    "hidden" boolean not null default false,
    "sort" integer null,
    "width" varchar(30) not null default 'full',
    "group" varchar(64) null,
    "translations" jsonb null,
    "note" text null,
    "conditions" jsonb null,
    "required" boolean not null default false,
    constraint "tessera_fields_pkey" primary key ("id"),
    constraint "tessera_fields_collection_field_unique" unique ("collection", "field"),
    constraint "tessera_fields_width_check" check ("width" in ('half', 'full')),
    constraint "tessera_fields_collection_foreign" foreign key ("collection")
      references "tessera_collections" ("collection") on update cascade on delete cascade,
    constraint "tessera_fields_group_foreign" foreign key ("collection", "group")
      references "tessera_fields" ("collection", "field") on update cascade on delete set null ("group")
  )`,

  `create table "tessera_relations" (
    "id" serial not null,
    "many_collection" varchar(64) not null,
    "many_field" varchar(64) not null,
    "one_collection" varchar(64) null,
    "one_field" varchar(64) null,
    "one_collection_field" varchar(64) null,
    "one_allowed_collections" text null,
    "junction_field" varchar(64) null,
    "sort_field" varchar(64) null,
    "one_deselect_action" varchar(255) not null default 'nullify',
    constraint "tessera_relations_pkey" primary key ("id"),
    constraint "tessera_relations_many_collection_many_field_unique" unique ("many_collection", "many_field"),
    constraint "tessera_relations_one_deselect_action_check" check ("one_deselect_action" in ('nullify', 'delete'))
  )`,
  `create index "tessera_relations_one_collection_index" on "tessera_relations" ("one_collection")`,

  `create table "tessera_roles" (
    "id" uuid not null default gen_random_uuid(),
    "name" varchar(100) not null,
    "icon" varchar(64) not null default 'supervised_user_circle',
    "description" text null,
    "app_access" boolean not null default true,
    "admin_access" boolean not null default false,
    "ip_access" text null,
    "enforce_tfa" boolean not null default false,
    constraint "tessera_roles_pkey" primary key ("id")
  )`,

  `create table "tessera_folders" (
    "id" uuid not null default gen_random_uuid(),
    "name" varchar(255) not null,
    "parent" uuid null,
    constraint "tessera_folders_pkey" primary key ("id"),
    constraint "tessera_folders_parent_foreign" foreign key ("parent")
      references "tessera_folders" ("id") on delete set null
  )`,
  `create index "tessera_folders_parent_index" on "tessera_folders" ("parent")`,

  `create table "tessera_users" (
    "id" uuid not null default gen_random_uuid(),
    "first_name" varchar(50) null,
    "last_name" varchar(50) null,
    "email" varchar(128) null,
    "password" varchar(255) null,
    "avatar" uuid null,
    "location" varchar(255) null,
    "title" varchar(50) null,
    "description" text null,
    "tags" text null,
    "language" varchar(255) null,
    "tfa_secret" varchar(255) null,
    "email_notifications" boolean not null default true,
    "appearance" varchar(255) null,
    "theme_light" varchar(255) null,
    "theme_dark" varchar(255) null,
    "theme_light_overrides" jsonb null,
    "theme_dark_overrides" jsonb null,
    "status" varchar(16) not null default 'active',
    "role" uuid null,
    "token" varchar(255) null,
    "last_page" varchar(255) null,
    "last_access" timestamptz null,
    "provider" varchar(128) not null default 'default',
    "external_identifier" varchar(255) null,
    "auth_data" jsonb null,
    constraint "tessera_users_pkey" primary key ("id"),
    constraint "tessera_users_email_unique" unique ("email"),
    constraint "tessera_users_token_unique" unique ("token"),
    constraint "tessera_users_provider_external_identifier_unique" unique ("provider", "external_identifier"),
    constraint "tessera_users_status_check"
      check ("status" in ('draft', 'invited', 'active', 'suspended', 'archived')),
    constraint "tessera_users_appearance_check" check ("appearance" in ('auto', 'light', 'dark')),
    constraint "tessera_users_role_foreign" foreign key ("role")
      references "tessera_roles" ("id") on delete set null
  )`,
  `create index "tessera_users_role_index" on "tessera_users" ("role")`,

  `create table "tessera_files" (
    "id" uuid not null default gen_random_uuid(),
    "storage" varchar(255) not null,
    "filename_disk" varchar(255) null,
    "filename_download" varchar(255) not null,
    "title" varchar(255) null,
    "type" varchar(255) null,
    "folder" uuid null,
    "uploaded_by" uuid null,
    "uploaded_on" timestamptz not null default now(),
    "modified_by" uuid null,
    "modified_on" timestamptz not null default now(),
    "charset" varchar(50) null,
    "filesize" bigint null,
    "width" integer null,
    "height" integer null,
    "duration" integer null,
    "embed" varchar(200) null,
    "description" text null,
    "location" text null,
    "tags" text null,
    "metadata" jsonb null,
    "focal_point_x" integer null,
    "focal_point_y" integer null,
    constraint "tessera_files_pkey" primary key ("id"),
    constraint "tessera_files_folder_foreign" foreign key ("folder")
      references "tessera_folders" ("id") on delete set null,
    constraint "tessera_files_uploaded_by_foreign" foreign key ("uploaded_by")
      references "tessera_users" ("id") on delete set null,
    constraint "tessera_files_modified_by_foreign" foreign key ("modified_by")
      references "tessera_users" ("id") on delete set null
  )`,
  `create index "tessera_files_folder_index" on "tessera_files" ("folder")`,
  `create index "tessera_files_uploaded_by_index" on "tessera_files" ("uploaded_by")`,
  `alter table "tessera_users" add constraint "tessera_users_avatar_foreign" foreign key ("avatar")
    references "tessera_files" ("id") on delete set null`,

  `create table "tessera_shares" (
    "id" uuid not null default gen_random_uuid(),
    "name" varchar(255) null,
    "collection" varchar(64) not null,
    "item" varchar(255) not null,
    "role" uuid null,
    "password" varchar(255) null,
    "user_created" uuid null,
    "date_created" timestamptz null default now(),
    "date_start" timestamptz null,
    "date_end" timestamptz null,
    "times_used" integer not null default 0,
    "max_uses" integer null,
    constraint "tessera_shares_pkey" primary key ("id"),
    constraint "tessera_shares_collection_foreign" foreign key ("collection")
      references "tessera_collections" ("collection") on update cascade on delete cascade,
    constraint "tessera_shares_role_foreign" foreign key ("role")
      references "tessera_roles" ("id") on delete cascade,
    constraint "tessera_shares_user_created_foreign" foreign key ("user_created")
      references "tessera_users" ("id") on delete set null
  )`,
  `create index "tessera_shares_collection_item_index" on "tessera_shares" ("collection", "item")`,
  `create index "tessera_shares_role_index" on "tessera_shares" ("role")`,
  `create index "tessera_shares_user_created_index" on "tessera_shares" ("user_created")`,

  `create table "tessera_sessions" (
    "token" varchar(64) not null,
    "user" uuid null,
    "expires" timestamptz not null,
    "ip" varchar(255) null,
    "user_agent" text null,
    "origin" varchar(255) null,
    "share" uuid null,
    constraint "tessera_sessions_pkey" primary key ("token"),
    constraint "tessera_sessions_user_foreign" foreign key ("user")
      references "tessera_users" ("id") on delete cascade,
    constraint "tessera_sessions_share_foreign" foreign key ("share")
      references "tessera_shares" ("id") on delete cascade
  )`,
  `create index "tessera_sessions_user_index" on "tessera_sessions" ("user")`,
  `create index "tessera_sessions_share_index" on "tessera_sessions" ("share")`,
  `create index "tessera_sessions_expires_index" on "tessera_sessions" ("expires")`,

  `create table "tessera_permissions" (
    "id" serial not null,
    "role" uuid null,
    "collection" varchar(64) not null,
    "action" varchar(10) not null,
    "fields" text null,
    "permissions" jsonb null,
    "validation" jsonb null,
    "presets" jsonb null,
    constraint "tessera_permissions_pkey" primary key ("id"),
    constraint "tessera_permissions_action_check"
      check ("action" in ('create', 'read', 'update', 'delete', 'share')),
    constraint "tessera_permissions_role_foreign" foreign key ("role")
      references "tessera_roles" ("id") on delete cascade
  )`,
  `create index "tessera_permissions_role_collection_index" on "tessera_permissions" ("role", "collection")`,

  `create table "tessera_presets" (
    "id" serial not null,
    "bookmark" varchar(255) null,
    "user" uuid null,
    "role" uuid null,
    "collection" varchar(64) null,
    "search" varchar(100) null,
    "layout" varchar(100) null default 'tabular',
    "layout_query" jsonb null,
    "layout_options" jsonb null,
    "refresh_interval" integer null,
    "filter" jsonb null,
    "icon" varchar(64) null default 'bookmark',
    "color" varchar(255) null,
    constraint "tessera_presets_pkey" primary key ("id"),
    constraint "tessera_presets_user_foreign" foreign key ("user")
      references "tessera_users" ("id") on delete cascade,
    constraint "tessera_presets_role_foreign" foreign key ("role")
      references "tessera_roles" ("id") on delete cascade
  )`,
  `create index "tessera_presets_user_index" on "tessera_presets" ("user")`,
  `create index "tessera_presets_role_index" on "tessera_presets" ("role")`,

  `create table "tessera_activity" (
    "id" serial not null,
    "action" varchar(45) not null,
    "user" uuid null,
    "timestamp" timestamptz not null default now(),
    "ip" varchar(50) null,
    "user_agent" text null,
    "collection" varchar(64) not null,
    "item" varchar(255) not null,
    "comment" text null,
    "origin" varchar(255) null,
    constraint "tessera_activity_pkey" primary key ("id")
  )`,
  `create index "tessera_activity_collection_item_index" on "tessera_activity" ("collection", "item")`,
  `create index "tessera_activity_user_index" on "tessera_activity" ("user")`,

  `create table "tessera_versions" (
    "id" uuid not null default gen_random_uuid(),
    "key" varchar(64) not null,
    "name" varchar(255) null,
    "collection" varchar(64) not null,
    "item" varchar(255) not null,
    "hash" varchar(255) null,
    "date_created" timestamptz null default now(),
    "date_updated" timestamptz null default now(),
    "user_created" uuid null,
    "user_updated" uuid null,
    constraint "tessera_versions_pkey" primary key ("id"),
    constraint "tessera_versions_collection_foreign" foreign key ("collection")
      references "tessera_collections" ("collection") on update cascade on delete cascade,
    constraint "tessera_versions_user_created_foreign" foreign key ("user_created")
      references "tessera_users" ("id") on delete set null,
    constraint "tessera_versions_user_updated_foreign" foreign key ("user_updated")
      references "tessera_users" ("id") on delete set null
  )`,
  `create index "tessera_versions_collection_item_index" on "tessera_versions" ("collection", "item")`,

  `create table "tessera_revisions" (
    "id" serial not null,
    "activity" integer not null,
    "collection" varchar(64) not null,
    "item" varchar(255) not null,
    "data" jsonb null,
    "delta" jsonb null,
    "parent" integer null,
    "version" uuid null,
    constraint "tessera_revisions_pkey" primary key ("id"),
    constraint "tessera_revisions_activity_foreign" foreign key ("activity")
      references "tessera_activity" ("id") on delete cascade,
    constraint "tessera_revisions_parent_foreign" foreign key ("parent")
      references "tessera_revisions" ("id") on delete set null,
    constraint "tessera_revisions_version_foreign" foreign key ("version")
      references "tessera_versions" ("id") on delete cascade
  )`,
  `create index "tessera_revisions_activity_index" on "tessera_revisions" ("activity")`,
  `create index "tessera_revisions_collection_item_index" on "tessera_revisions" ("collection", "item")`,
  `create index "tessera_revisions_parent_index" on "tessera_revisions" ("parent")`,
  `create index "tessera_revisions_version_index" on "tessera_revisions" ("version")`,

  `create table "tessera_notifications" (
    "id" serial not null,
    "timestamp" timestamptz null default now(),
    "status" varchar(255) null default 'inbox',
    "recipient" uuid not null,
    "sender" uuid null,
    "subject" varchar(255) not null,
    "message" text null,
    "collection" varchar(64) null,
    "item" varchar(255) null,
    constraint "tessera_notifications_pkey" primary key ("id"),
    constraint "tessera_notifications_recipient_foreign" foreign key ("recipient")
      references "tessera_users" ("id") on delete cascade,
    constraint "tessera_notifications_sender_foreign" foreign key ("sender")
      references "tessera_users" ("id") on delete set null
  )`,
  `create index "tessera_notifications_recipient_index" on "tessera_notifications" ("recipient")`,

  `create table "tessera_dashboards" (
    "id" uuid not null default gen_random_uuid(),
    "name" varchar(255) not null,
    "icon" varchar(64) not null default 'dashboard',
    "note" text null,
    "date_created" timestamptz null default now(),
    "user_created" uuid null,
    "color" varchar(255) null,
    constraint "tessera_dashboards_pkey" primary key ("id"),
    constraint "tessera_dashboards_user_created_foreign" foreign key ("user_created")
      references "tessera_users" ("id") on delete set null
  )`,

  `create table "tessera_panels" (
    "id" uuid not null default gen_random_uuid(),
    "dashboard" uuid not null,
    "name" varchar(255) null,
    "icon" varchar(64) null,
    "color" varchar(10) null,
    "show_header" boolean not null default false,
    "note" text null,
    "type" varchar(255) not null,
    "position_x" integer not null,
    "position_y" integer not null,
    "width" integer not null,
    "height" integer not null,
    "options" jsonb null,
    "date_created" timestamptz null default now(),
    "user_created" uuid null,
    constraint "tessera_panels_pkey" primary key ("id"),
    constraint "tessera_panels_dashboard_foreign" foreign key ("dashboard")
      references "tessera_dashboards" ("id") on delete cascade,
    constraint "tessera_panels_user_created_foreign" foreign key ("user_created")
      references "tessera_users" ("id") on delete set null
  )`,
  `create index "tessera_panels_dashboard_index" on "tessera_panels" ("dashboard")`,

  `create table "tessera_flows" (
    "id" uuid not null default gen_random_uuid(),
    "name" varchar(255) not null,
    "icon" varchar(64) null,
    "color" varchar(255) null,
    "description" text null,
    "status" varchar(255) not null default 'active',
    "trigger" varchar(255) null,
    "accountability" varchar(255) null default 'all',
    "options" jsonb null,
    "operation" uuid null,
    "date_created" timestamptz null default now(),
    "user_created" uuid null,
    constraint "tessera_flows_pkey" primary key ("id"),
    constraint "tessera_flows_operation_unique" unique ("operation"),
    constraint "tessera_flows_user_created_foreign" foreign key ("user_created")
      references "tessera_users" ("id") on delete set null
  )`,

  `create table "tessera_operations" (
    "id" uuid not null default gen_random_uuid(),
    "name" varchar(255) null,
    "key" varchar(255) not null,
    "type" varchar(255) not null,
    "position_x" integer not null,
    "position_y" integer not null,
    "options" jsonb null,
    "resolve" uuid null,
    "reject" uuid null,
    "flow" uuid not null,
    "date_created" timestamptz null default now(),
    "user_created" uuid null,
    constraint "tessera_operations_pkey" primary key ("id"),
    constraint "tessera_operations_resolve_unique" unique ("resolve"),
    constraint "tessera_operations_reject_unique" unique ("reject"),
    constraint "tessera_operations_resolve_foreign" foreign key ("resolve")
      references "tessera_operations" ("id") on delete set null,
    constraint "tessera_operations_reject_foreign" foreign key ("reject")
      references "tessera_operations" ("id") on delete set null,
    constraint "tessera_operations_flow_foreign" foreign key ("flow")
      references "tessera_flows" ("id") on delete cascade,
    constraint "tessera_operations_user_created_foreign" foreign key ("user_created")
      references "tessera_users" ("id") on delete set null
  )`,
  `create index "tessera_operations_flow_index" on "tessera_operations" ("flow")`,
  `alter table "tessera_flows" add constraint "tessera_flows_operation_foreign" foreign key ("operation")
    references "tessera_operations" ("id") on delete set null`,

  `create table "tessera_webhooks" (
    "id" serial not null,
    "name" varchar(255) not null,
    "method" varchar(10) not null default 'POST',
    "url" varchar(2048) not null,
    "status" varchar(10) not null default 'active',
    "data" boolean not null default true,
    "headers" jsonb null,
    "actions" text not null,
    "collections" text not null,
    "was_active_before_deprecation" boolean not null default false,
    "migrated_flow" uuid null,
    constraint "tessera_webhooks_pkey" primary key ("id"),
    constraint "tessera_webhooks_method_check" check ("method" in ('GET', 'POST')),
    constraint "tessera_webhooks_status_check" check ("status" in ('active', 'inactive')),
    constraint "tessera_webhooks_migrated_flow_foreign" foreign key ("migrated_flow")
      references "tessera_flows" ("id") on delete set null
  )`,

  `create table "tessera_translations" (
    "id" uuid not null default gen_random_uuid(),
    "key" varchar(255) not null,
    "language" varchar(255) not null,
    "value" text not null,
    constraint "tessera_translations_pkey" primary key ("id")
  )`,
  `create index "tessera_translations_key_language_index" on "tessera_translations" ("key", "language")`,

  `create table "tessera_extensions" (
    "id" uuid not null default gen_random_uuid(),
    "folder" varchar(255) not null,
    "source" varchar(255) not null,
    "bundle" uuid null,
    "enabled" boolean not null default true,
    constraint "tessera_extensions_pkey" primary key ("id")
  )`,

  `create table "tessera_settings" (
    "id" integer not null default 1,
    "project_name" varchar(100) not null default 'Tessera',
    "project_descriptor" varchar(100) null,
    "project_url" varchar(255) null,
    "project_color" varchar(255) not null default '#6644FF',
    "project_logo" uuid null,
    "public_foreground" uuid null,
    "public_background" uuid null,
    "public_favicon" uuid null,
    "public_note" text null,
    "default_language" varchar(255) not null default 'en-US',
    "default_appearance" varchar(255) not null default 'auto',
    "default_theme_light" varchar(255) null,
    "default_theme_dark" varchar(255) null,
    "theme_light_overrides" jsonb null,
    "theme_dark_overrides" jsonb null,
    "custom_css" text null,
    "module_bar" jsonb null,
    "auth_password_policy" varchar(6) not null default 'none',
    "auth_login_attempts" integer null default 25,
    "storage_asset_transform" varchar(7) not null default 'all',
    "storage_asset_presets" jsonb null,
    "storage_default_folder" uuid null,
    "report_feature_url" varchar(255) null,
    "report_bug_url" varchar(255) null,
    "report_error_url" varchar(255) null,
    "mapbox_key" varchar(255) null,
    "basemaps" jsonb null,
    "custom_aspect_ratios" jsonb null,
    constraint "tessera_settings_pkey" primary key ("id"),
    constraint "tessera_settings_id_check" check ("id" = 1),
    constraint "tessera_settings_default_appearance_check" check ("default_appearance" in ('auto', 'light', 'dark')),
    constraint "tessera_settings_auth_password_policy_check"
      check ("auth_password_policy" in ('none', 'weak', 'strong')),
    constraint "tessera_settings_storage_asset_transform_check"
      check ("storage_asset_transform" in ('all', 'none', 'presets')),
    constraint "tessera_settings_project_logo_foreign" foreign key ("project_logo")
      references "tessera_files" ("id") on delete set null,
    constraint "tessera_settings_public_foreground_foreign" foreign key ("public_foreground")
      references "tessera_files" ("id") on delete set null,
    constraint "tessera_settings_public_background_foreign" foreign key ("public_background")
      references "tessera_files" ("id") on delete set null,
    constraint "tessera_settings_public_favicon_foreign" foreign key ("public_favicon")
      references "tessera_files" ("id") on delete set null,
    constraint "tessera_settings_storage_default_folder_foreign" foreign key ("storage_default_folder")
      references "tessera_folders" ("id") on delete set null
  )`,
  `insert into "tessera_settings" ("id") values (1)`,
];

/** Tables created by {@link SYSTEM_SCHEMA_SQL}, in creation order. */
export const SYSTEM_TABLES: readonly string[] = [
  'tessera_collections',
  'tessera_fields',
  'tessera_relations',
  'tessera_roles',
  'tessera_folders',
  'tessera_users',
  'tessera_files',
  'tessera_shares',
  'tessera_sessions',
  'tessera_permissions',
  'tessera_presets',
  'tessera_activity',
  'tessera_versions',
  'tessera_revisions',
  'tessera_notifications',
  'tessera_dashboards',
  'tessera_panels',
  'tessera_flows',
  'tessera_operations',
  'tessera_webhooks',
  'tessera_translations',
  'tessera_extensions',
  'tessera_settings',
];

/** Creates the system tables; `down` drops them again. */
export class SystemSchemaMigration extends Migration {
  override name = '20261121000001-system-schema';

  /** Creates every system table, its constraints and indexes. */
  up(): void {
    for (const statement of SYSTEM_SCHEMA_SQL) this.addSql(statement);
  }

  /** Drops every system table this migration created, newest first. */
  override down(): void {
    for (const table of [...SYSTEM_TABLES].reverse()) this.addSql(`drop table if exists "${table}" cascade`);
  }
}

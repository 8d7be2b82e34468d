/** User statuses (SPEC.md §4). */
export const USER_STATUSES = ['draft', 'invited', 'unverified', 'active', 'suspended', 'archived'] as const;
/** A user's status. */
export type UserStatus = (typeof USER_STATUSES)[number];

/** The status a new user gets when none is given. */
export const DEFAULT_USER_STATUS: UserStatus = 'active';

/** Status the users collection archives to, and unarchives to (SPEC.md §4). */
export const USER_ARCHIVE = { archiveValue: 'archived', unarchiveValue: 'draft' } as const;

/** Webhook statuses (SPEC.md §4). */
export const WEBHOOK_STATUSES = ['active', 'inactive'] as const;
/** A webhook's status. */
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Webhook request methods (SPEC.md §9). */
export const WEBHOOK_METHODS = ['GET', 'POST'] as const;
/** A webhook's request method. */
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** Actions a webhook can be triggered by (SPEC.md §9; `login` appears only in activity displays). */
export const WEBHOOK_ACTIONS = ['create', 'update', 'delete'] as const;
/** A webhook trigger action. */
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

/** Appearances (SPEC.md §4); a user's `null` means "sync with the project". */
export const APPEARANCES = ['auto', 'light', 'dark'] as const;
/** An appearance value. */
export type Appearance = (typeof APPEARANCES)[number];

/** Collection accountability: activity and revisions, activity only, or none (SPEC.md §4). */
export const ACCOUNTABILITY_VALUES = ['all', 'activity', null] as const;
/** A collection's accountability. */
export type Accountability = (typeof ACCOUNTABILITY_VALUES)[number];

/** What deselecting a related item does (SPEC.md §4); nullify is the default (SPEC.md §3). */
export const DESELECT_ACTIONS = ['nullify', 'delete'] as const;
/** A relation's deselect action. */
export type DeselectAction = (typeof DESELECT_ACTIONS)[number];

/** Which asset transformations are allowed (SPEC.md §9). */
export const ASSET_TRANSFORM_MODES = ['all', 'none', 'presets'] as const;
/** The value of settings.storage_asset_transform. */
export type AssetTransformMode = (typeof ASSET_TRANSFORM_MODES)[number];

/** Image fit modes of asset presets (SPEC.md §9). */
export const ASSET_FITS = ['contain', 'cover', 'inside', 'outside'] as const;
/** An asset preset fit. */
export type AssetFit = (typeof ASSET_FITS)[number];

/** Output formats of asset presets (SPEC.md §9). */
export const ASSET_FORMATS = ['auto', 'jpeg', 'png', 'webp', 'tiff', 'avif'] as const;
/** An asset preset format. */
export type AssetFormat = (typeof ASSET_FORMATS)[number];

/** Asset preset quality: default and allowed range (SPEC.md §9). */
export const ASSET_PRESET_QUALITY = { default: 80, min: 0, max: 100, step: 1 } as const;

/** Default asset preset quality (SPEC.md §9). */
export const ASSET_PRESET_QUALITY_DEFAULT = ASSET_PRESET_QUALITY.default;

/** Map basemap source types (SPEC.md §9); tileSize applies to every type but raster (SPEC.md §5). */
export const BASEMAP_TYPES = ['raster', 'tile', 'style'] as const;
/** A basemap type. */
export type BasemapType = (typeof BASEMAP_TYPES)[number];

/** Password policies (SPEC.md §9); settings.auth_password_policy stores the name. */
export const PASSWORD_POLICY_NAMES = ['none', 'weak', 'strong'] as const;
/** A named password policy. */
export type PasswordPolicyName = (typeof PASSWORD_POLICY_NAMES)[number];

/**
 * What each policy requires (SPEC.md §9): weak = at least 8 characters; strong = at least 8 characters
 * with a digit, a lowercase and an uppercase letter, a special character, and no whitespace.
 */
export const PASSWORD_POLICIES: Readonly<Record<PasswordPolicyName, RegExp | null>> = {
  none: null,
  weak: /^.{8,}$/u,
  strong: /^(?=.*\d)(?=.*\p{Ll})(?=.*\p{Lu})(?=.*[^\p{L}\p{N}\s])(?!.*\s).{8,}$/u,
};

/** Permission actions (DESIGN.md §5). */
export const PERMISSION_ACTIONS = ['create', 'read', 'update', 'delete', 'share'] as const;
/** A permission action. */
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/** Collection-group display states in the admin navigation. */
export const COLLECTION_COLLAPSE_STATES = ['open', 'closed', 'locked'] as const;
/** A collection group's collapse state. */
export type CollectionCollapse = (typeof COLLECTION_COLLAPSE_STATES)[number];

/** Interface language default (SPEC.md §1, §9). */
export const DEFAULT_LANGUAGE = 'en-US';

/** Project defaults written into a fresh settings row. */
export const PROJECT_DEFAULTS = {
  name: 'Tessera',
  color: '#6644FF',
  appearance: 'auto',
  loginAttempts: 25,
  assetTransform: 'all',
} as const;

/** Session timings (SPEC.md §9), in seconds. */
export const SESSION = {
  lifetimeSeconds: 2_592_000,
  updateAgeSeconds: 86_400,
} as const;

/** Authentication-layer constants (SPEC.md §9). */
export const AUTH = {
  loginScope: 'openid',
  emailLinkValiditySeconds: 86_400,
  stateCookieMaxAgeSeconds: 900,
  pkceCookieMaxAgeSeconds: 900,
  nonceCookieMaxAgeSeconds: 900,
  cookieChunkSize: 3933,
  cookieSizeLimitBytes: 4096,
  tokenClockToleranceSeconds: 15,
  identityClientClockToleranceSeconds: 10,
  csrfTokenBytes: 32,
} as const;

/** Remote JWK set fetching (SPEC.md §9), in milliseconds. */
export const REMOTE_JWKS = {
  timeoutMs: 5_000,
  cooldownMs: 30_000,
  cacheMaxAgeMs: 600_000,
} as const;

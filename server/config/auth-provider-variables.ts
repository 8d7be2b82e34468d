import * as yup from 'yup';
import { isHttpUrl, urlList } from './variables.ts';

/**
 * The variables of one sign-in provider, read as `AUTH_<NAME>_<SUFFIX>` for every name in AUTH_PROVIDERS
 * (docs/config.md, "Sign-in providers"). Option names are Directus's, so its configurations carry over.
 */

/** Sign-in drivers; `openid` when AUTH_<NAME>_DRIVER is unset (the only driver before it existed). */
export const AUTH_DRIVERS = ['openid', 'oauth2', 'ldap', 'saml'] as const;
export type AuthDriver = (typeof AUTH_DRIVERS)[number];

const httpUrl = () => yup.string().test('http-url', 'must be an absolute http:// or https:// URL', (value) => value === undefined || isHttpUrl(value));
const bool = (fallback: boolean) => yup.boolean().typeError('must be true or false').default(fallback);
const key = () => yup.string().max(500);

/** Options every driver has. */
const commonFields = {
  /** `openid`, `oauth2`, `ldap` or `saml`. @default openid */
  DRIVER: yup.string().oneOf([...AUTH_DRIVERS], `must be one of ${AUTH_DRIVERS.join(', ')}`).default('openid'),
  /** Button text on the sign-in page and in the admin. @default the name, capitalised */
  LABEL: yup.string().max(100).optional(),
  /** Icon name shown with the label (a Material icon name, e.g. `github`, `key`, `lock`). @default none */
  ICON: yup.string().max(100).optional(),
  /** Create users on their first sign-in. @default false */
  ALLOW_PUBLIC_REGISTRATION: bool(false),
  /** Role of users created on first sign-in; unset: no role. */
  DEFAULT_ROLE_ID: yup.string().uuid('must be a role id (uuid)').optional(),
  /** Update the user's e-mail and names from the provider's profile on every sign-in. @default false */
  SYNC_USER_INFO: bool(false),
};

/** Options of the drivers that redirect the browser to the provider and back. */
const redirectFields = {
  /** Pages besides PUBLIC_URL's origin that `?redirect=` may name, comma-separated. @default empty */
  REDIRECT_ALLOW_LIST: urlList(),
};

export const openidVariablesSchema = yup.object({
  ...commonFields,
  ...redirectFields,
  /** Issuer URL; its `/.well-known/openid-configuration` is discovered. Required. */
  ISSUER_URL: httpUrl().required('is required'),
  /** Client id registered with the provider. Required. */
  CLIENT_ID: yup.string().required('is required'),
  /** Client secret; unset: a public client (PKCE only, no client authentication). */
  CLIENT_SECRET: yup.string().optional(),
  /** Scopes requested, space-separated; must include `openid`. @default openid */
  SCOPE: yup.string().default('openid').test('openid-scope', 'must include openid', (value) => (value ?? '').split(/\s+/).includes('openid')),
  /** Profile claim that identifies the user at the provider. @default sub */
  IDENTIFIER_KEY: key().default('sub'),
  /** Profile claim with the e-mail address. @default email */
  EMAIL_KEY: key().default('email'),
  /** Profile claim with the first name. @default given_name */
  FIRST_NAME_KEY: key().default('given_name'),
  /** Profile claim with the last name. @default family_name */
  LAST_NAME_KEY: key().default('family_name'),
});

export const oauth2VariablesSchema = yup.object({
  ...commonFields,
  ...redirectFields,
  /** Client id registered with the provider. Required. */
  CLIENT_ID: yup.string().required('is required'),
  /** Client secret; unset: a public client (PKCE only). */
  CLIENT_SECRET: yup.string().optional(),
  /** The provider's authorization endpoint. Required. */
  AUTHORIZE_URL: httpUrl().required('is required'),
  /** The provider's token endpoint. Required. */
  ACCESS_URL: httpUrl().required('is required'),
  /** The user-info endpoint, read with the access token. Required. */
  PROFILE_URL: httpUrl().required('is required'),
  /** Scopes requested, space-separated. @default email */
  SCOPE: yup.string().default('email'),
  /** Profile field that identifies the user at the provider. @default email */
  IDENTIFIER_KEY: key().default('email'),
  /** Profile field with the e-mail address. @default email */
  EMAIL_KEY: key().default('email'),
  /** Profile field with the first name; unset: none. */
  FIRST_NAME_KEY: key().optional(),
  /** Profile field with the last name; unset: none. */
  LAST_NAME_KEY: key().optional(),
});

const ldapScope = () => yup.string().oneOf(['base', 'one', 'sub'], 'must be base, one or sub').default('one');
const dn = () => yup.string().max(1000);
const attribute = () =>
  yup
    .string()
    .matches(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be an attribute name (letters, digits and -)')
    .max(100);

export const ldapVariablesSchema = yup.object({
  ...commonFields,
  /** `ldap://host:389` or `ldaps://host:636`. Required. */
  CLIENT_URL: yup
    .string()
    .required('is required')
    .matches(/^ldaps?:\/\/[^\s/]+\/?$/, 'must be an ldap:// or ldaps:// URL of a server (host and optional port)'),
  /** Use StartTLS on an ldap:// connection before anything is sent. @default false */
  CLIENT_START_TLS: bool(false),
  /** Certificate authority (PEM text, or a file through CLIENT_TLS_CA_FILE) that signed the server's certificate. */
  CLIENT_TLS_CA: yup.string().optional(),
  /** Refuse a server certificate that no trusted authority signed. @default true */
  CLIENT_TLS_REJECT_UNAUTHORIZED: bool(true),
  /** DN of the service account that searches the directory. Required. */
  BIND_DN: dn().required('is required'),
  /** Password of the service account. Required. */
  BIND_PASSWORD: yup.string().required('is required'),
  /** Where users are searched. Required. */
  USER_DN: dn().required('is required'),
  /** Attribute matched against the identifier people type. @default cn */
  USER_ATTRIBUTE: attribute().default('cn'),
  /** Search scope under USER_DN: base, one or sub. @default one */
  USER_SCOPE: ldapScope(),
  /** Attribute with the e-mail address. @default mail */
  MAIL_ATTRIBUTE: attribute().default('mail'),
  /** Attribute with the first name. @default givenName */
  FIRST_NAME_ATTRIBUTE: attribute().default('givenName'),
  /** Attribute with the last name. @default sn */
  LAST_NAME_ATTRIBUTE: attribute().default('sn'),
  /** Where groups are searched; unset: groups are not read and users keep DEFAULT_ROLE_ID. */
  GROUP_DN: dn().optional(),
  /** Group attribute that lists a member's DN. @default member */
  GROUP_ATTRIBUTE: attribute().default('member'),
  /** Search scope under GROUP_DN: base, one or sub. @default one */
  GROUP_SCOPE: ldapScope(),
});

export const samlVariablesSchema = yup.object({
  ...commonFields,
  ...redirectFields,
  /** The service provider's metadata XML (Tessera's side): entityID and AssertionConsumerService. Required. */
  SP_METADATA: yup.string().required('is required').test('xml', 'must be SAML metadata XML (an EntityDescriptor)', (value) => value === undefined || /<([\w-]+:)?EntityDescriptor[\s>]/.test(value)),
  /** The identity provider's metadata XML: entityID, SingleSignOnService and signing certificate. Required. */
  IDP_METADATA: yup.string().required('is required').test('xml', 'must be SAML metadata XML (an EntityDescriptor)', (value) => value === undefined || /<([\w-]+:)?EntityDescriptor[\s>]/.test(value)),
  /** Assertion attribute (or `nameID`) that identifies the user. @default nameID */
  IDENTIFIER_KEY: key().default('nameID'),
  /** Assertion attribute with the e-mail address. @default http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress */
  EMAIL_KEY: key().default('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'),
  /** Assertion attribute with the first name. @default http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname */
  GIVEN_NAME_KEY: key().default('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'),
  /** Assertion attribute with the last name. @default http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname */
  FAMILY_NAME_KEY: key().default('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'),
});

/** Each driver's variables. */
export const DRIVER_SCHEMAS = {
  openid: openidVariablesSchema,
  oauth2: oauth2VariablesSchema,
  ldap: ldapVariablesSchema,
  saml: samlVariablesSchema,
} as const;

/** Suffixes of one driver's variables, in documentation order. */
export function driverVariableSuffixes(driver: AuthDriver): string[] {
  return Object.keys(DRIVER_SCHEMAS[driver].fields);
}

/** Directus spells two SAML options in lower case (`SP_metadata`); both spellings are read. */
export const VARIABLE_ALIASES: Record<string, string> = { SP_METADATA: 'SP_metadata', IDP_METADATA: 'IDP_metadata' };

/** Every error code the API can answer with (DESIGN.md §4). */
export const ERROR_CODES = {
  INVALID_PAYLOAD: 400,
  INVALID_QUERY: 400,
  FAILED_VALIDATION: 400,
  RECORD_NOT_UNIQUE: 400,
  NOT_NULL_VIOLATION: 400,
  CONTAINS_NULL_VALUES: 400,
  INVALID_FOREIGN_KEY: 400,
  DATA_LOSS: 400,
  VALUE_TOO_LONG: 400,
  VALUE_OUT_OF_RANGE: 400,
  ILLEGAL_ASSET_TRANSFORMATION: 400,
  INVALID_CREDENTIALS: 401,
  INVALID_OTP: 401,
  TOKEN_EXPIRED: 401,
  INVALID_TOKEN: 401,
  USER_SUSPENDED: 401,
  INVALID_IP: 401,
  FORBIDDEN: 403,
  TFA_SETUP_REQUIRED: 403,
  INVALID_VERIFICATION_TOKEN: 403,
  ROUTE_NOT_FOUND: 404,
  SCHEMA_HASH_MISMATCH: 409,
  PRECONDITION_FAILED: 412,
  CONTENT_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  REQUESTS_EXCEEDED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  TRANSACTION_CONFLICT: 409,
  QUERY_TIMEOUT: 503,
  VERSION_OUTDATED: 409,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Extra, client-visible facts about an error, e.g. the offending field. */
export interface ErrorExtensions {
  field?: string;
  [key: string]: unknown;
}

/** The root of Tessera's errors: each carries an HTTP status and a stable code. */
export abstract class TesseraError extends Error {
  abstract readonly code: ErrorCode;
  readonly extensions: ErrorExtensions;
  /** Whether the message may be shown to a client as is. */
  readonly expose: boolean = true;

  constructor(message: string, extensions: ErrorExtensions = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.extensions = extensions;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }
}

/** A request body that fails validation; `extensions.field` names the field. */
export class InvalidPayloadError extends TesseraError {
  readonly code = 'INVALID_PAYLOAD';
}

/**
 * A write whose If-Match names a version an item is no longer at (RFC 9110): nothing was written.
 * `extensions.conflicts` lists each such item's key and current ETag (and the item, when the caller may read it).
 */
export class PreconditionFailedError extends TesseraError {
  readonly code = 'PRECONDITION_FAILED';
}

/** A written value that breaks a permission's validation rule; `extensions.field` names the field. */
export class FailedValidationError extends TesseraError {
  readonly code = 'FAILED_VALIDATION';
}

/** A query parameter that cannot be understood or is not allowed. */
export class InvalidQueryError extends TesseraError {
  readonly code = 'INVALID_QUERY';
}

/** A write that would duplicate a unique value. */
export class RecordNotUniqueError extends TesseraError {
  readonly code = 'RECORD_NOT_UNIQUE';
}

/** A write that leaves a required (NOT NULL) field empty. */
export class NotNullViolationError extends TesseraError {
  readonly code = 'NOT_NULL_VIOLATION';
}

/** A schema change that makes a field required while existing items have no value for it. */
export class ContainsNullValuesError extends TesseraError {
  readonly code = 'CONTAINS_NULL_VALUES';
}

/** A relational value pointing at an item that does not exist. */
export class InvalidForeignKeyError extends TesseraError {
  readonly code = 'INVALID_FOREIGN_KEY';
}

/** A value longer than its field allows. */
export class ValueTooLongError extends TesseraError {
  readonly code = 'VALUE_TOO_LONG';
}

/** A number outside its field's range. */
export class ValueOutOfRangeError extends TesseraError {
  readonly code = 'VALUE_OUT_OF_RANGE';
}

/** An asset transformation that is not allowed or cannot run (too large an output, a bad operation). */
export class IllegalAssetTransformationError extends TesseraError {
  readonly code = 'ILLEGAL_ASSET_TRANSFORMATION';
}

/** Wrong e-mail or password; deliberately does not say which. */
export class InvalidCredentialsError extends TesseraError {
  readonly code = 'INVALID_CREDENTIALS';
  constructor(message = 'Invalid user credentials.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** A wrong or missing one-time password. */
export class InvalidOtpError extends TesseraError {
  readonly code = 'INVALID_OTP';
  constructor(message = 'Invalid user OTP.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** An access token past its expiry. */
export class TokenExpiredError extends TesseraError {
  readonly code = 'TOKEN_EXPIRED';
  constructor(message = 'Token expired.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** A token that is malformed, tampered with or unknown. */
export class InvalidTokenError extends TesseraError {
  readonly code = 'INVALID_TOKEN';
  constructor(message = 'Invalid token.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** A user whose status does not allow signing in. */
export class UserSuspendedError extends TesseraError {
  readonly code = 'USER_SUSPENDED';
  constructor(message = 'User suspended.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** A caller whose IP address is not in its role's ip_access list. */
export class InvalidIpError extends TesseraError {
  readonly code = 'INVALID_IP';
  constructor(message = "Your IP address isn't allowed to use this role.", extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** Not allowed, or does not exist: the two are indistinguishable on purpose. */
export class ForbiddenError extends TesseraError {
  readonly code = 'FORBIDDEN';
  constructor(message = "You don't have permission to access this.", extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/**
 * An e-mail sign-in link that does not exist, was used already or has expired (SPEC §5, §8
 * Verification); the sign-in pages show it as the Verification error page.
 */
export class VerificationError extends TesseraError {
  readonly code = 'INVALID_VERIFICATION_TOKEN';
  constructor(message = 'The sign in link is no longer valid. It may have been used already or it may have expired.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** A user of a role with enforce_tfa who has not set up two-factor authentication yet (docs/auth.md). */
export class TfaSetupRequiredError extends TesseraError {
  readonly code = 'TFA_SETUP_REQUIRED';
  constructor(message = 'Your role requires two-factor authentication: set it up with /users/me/tfa/generate and /users/me/tfa/enable first.', extensions?: ErrorExtensions) {
    super(message, extensions);
  }
}

/** No route matches the method and path. */
export class RouteNotFoundError extends TesseraError {
  readonly code = 'ROUTE_NOT_FOUND';
}

/** A request body larger than MAX_PAYLOAD_SIZE. */
export class ContentTooLargeError extends TesseraError {
  readonly code = 'CONTENT_TOO_LARGE';
}

/** A request body in a format the route does not accept. */
export class UnsupportedMediaTypeError extends TesseraError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}

/** A schema apply with steps that destroy data (listed in `extensions.steps`), asked without allowing data loss. */
export class DataLossError extends TesseraError {
  readonly code = 'DATA_LOSS';
}

/** A schema apply whose plan was made against a database that has changed since (its hash no longer matches). */
export class SchemaHashMismatchError extends TesseraError {
  readonly code = 'SCHEMA_HASH_MISMATCH';
}

/** A Range header outside the resource. */
export class RangeNotSatisfiableError extends TesseraError {
  readonly code = 'RANGE_NOT_SATISFIABLE';
}

/** Too many requests in the rate-limit window. */
export class RequestsExceededError extends TesseraError {
  readonly code = 'REQUESTS_EXCEEDED';
}

/** A dependency (the database) is down. */
export class ServiceUnavailableError extends TesseraError {
  readonly code = 'SERVICE_UNAVAILABLE';
}

/** A write that kept colliding with concurrent writes (deadlock, serialization failure) after its retries. */
export class TransactionConflictError extends TesseraError {
  readonly code = 'TRANSACTION_CONFLICT';
}

/** A statement that ran past DB_STATEMENT_TIMEOUT (or was cancelled) and was stopped by the database. */
export class QueryTimeoutError extends TesseraError {
  readonly code = 'QUERY_TIMEOUT';
}

/** Anything unexpected; its message never reaches a client. */
export class InternalError extends TesseraError {
  readonly code = 'INTERNAL_SERVER_ERROR';
  override readonly expose = false;
}

/** Invalid configuration found at startup; names every bad variable. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** The database could not be reached at all (refused, unknown host, authentication, no such database); the message names it. */
export class DatabaseConnectionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DatabaseConnectionError';
  }
}

/** True for errors of Tessera's own hierarchy. */
export function isTesseraError(error: unknown): error is TesseraError {
  return error instanceof TesseraError;
}

/** A version promoted after its main item changed, without the caller confirming the main item's current hash. */
export class VersionOutdatedError extends TesseraError {
  readonly code = 'VERSION_OUTDATED';
}

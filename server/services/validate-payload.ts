import { ValidationError, type AnyObjectSchema, type InferType } from 'yup';
import { InvalidPayloadError } from '../errors.ts';
import { refuseInheritedNames } from '../own-keys.ts';

/**
 * Validates and casts `payload` with a yup schema; keys naming Object.prototype members are refused first
 * (own-keys.ts: yup would find them in its field maps). The first failure becomes an INVALID_PAYLOAD
 * error naming the field; the others travel in `extensions.errors`.
 */
export function validatePayload<S extends AnyObjectSchema>(schema: S, payload: unknown): InferType<S> {
  refuseInheritedNames(payload);
  try {
    return schema.validateSync(payload, { abortEarly: false, stripUnknown: false });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const issues = (error.inner.length > 0 ? error.inner : [error]).map((issue) => ({
      field: issue.path || null,
      message: issue.message,
    }));
    const first = issues[0]!;
    const extensions = first.field ? { field: first.field, errors: issues } : { errors: issues };
    const isObject = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
    throw new InvalidPayloadError(isObject ? first.message : 'Invalid payload: the body must be a JSON object.', extensions);
  }
}

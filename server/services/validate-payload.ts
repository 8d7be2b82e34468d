import { ValidationError, type AnyObjectSchema, type InferType } from 'yup';
import { InvalidPayloadError } from '../errors.ts';

/**
 * Validates and casts `payload` with a yup schema. The first failure becomes an INVALID_PAYLOAD
 * error naming the field; the others travel in `extensions.errors`.
 */
export function validatePayload<S extends AnyObjectSchema>(schema: S, payload: unknown): InferType<S> {
  try {
    return schema.validateSync(payload, { abortEarly: false, stripUnknown: false });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const issues = (error.inner.length > 0 ? error.inner : [error]).map((issue) => ({
      field: issue.path ?? null,
      message: issue.message,
    }));
    const first = issues[0]!;
    throw new InvalidPayloadError(first.message, { field: first.field ?? undefined, errors: issues });
  }
}

import * as yup from 'yup';

/** A nullable enumeration whose 400 message lists the allowed values, `null` spelled out. */
export function oneOfValues<T extends string | null>(values: readonly T[]) {
  const allowed = values.map((value) => (value === null ? 'null' : value)).join(', ');
  return yup
    .mixed<NonNullable<T>>()
    .nullable()
    .test('one-of', `\${path} must be one of the following values: ${allowed}`, (value) => value === undefined || values.includes(value as T));
}

/** A list of `{ language, translation }` objects (SPEC.md §5: both required), with optional extra keys. */
export function translationsSchema(extra: Record<string, yup.AnySchema> = {}) {
  return yup
    .array(
      yup
        .object({
          language: yup.string().required(),
          translation: yup.string().required(),
          ...extra,
        })
        .exact(),
    )
    .nullable();
}

/** Values that must be a JSON object (not an array), or null. */
export function jsonObjectSchema() {
  return yup
    .mixed<Record<string, unknown>>()
    .nullable()
    .test('object', '${path} must be an object', (value) => value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value)));
}

/**
 * An object schema that drops keys its shape does not name instead of refusing them: field and collection
 * descriptors are lenient as in Directus (clients send back what they read, and Directus-only keys).
 */
export function lenientObject<S extends yup.ObjectShape>(shape: S) {
  const known = new Set(Object.keys(shape));
  return yup
    .object(shape)
    .transform((value: unknown) =>
      typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([key]) => known.has(key))) : value,
    );
}

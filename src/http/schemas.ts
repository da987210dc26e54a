import { Type, type TSchema } from 'typebox';

/** `X | null`, spelled `anyOf: [X, {type: null}]` as the reference's schemas are. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Uuid = (options: { description?: string } = {}) => Type.String({ format: 'uuid', ...options });
/** Unix epoch seconds. */
export const EpochSeconds = (options: { description?: string } = {}) => Type.Integer(options);
/** A free-form JSON object. */
export const FreeObject = () => Type.Object({}, { additionalProperties: true });

export const IdParams = Type.Object({ id: Uuid() });

export const ValidationErrorSchema = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
    msg: Type.String(),
    type: Type.String(),
  },
  { $id: 'ValidationError' },
);

export const HTTPValidationError = Type.Object(
  { detail: Type.Array(Type.Ref('ValidationError')) },
  { $id: 'HTTPValidationError', description: 'The request failed validation' },
);

export const HTTPError = Type.Object(
  { detail: Type.String({ description: 'What went wrong, for a person' }) },
  { $id: 'HTTPError' },
);

const ref = (id: string, description: string) => Type.Unsafe<unknown>({ $ref: `${id}#`, description });

/** The error statuses routes share, each with its body schema and what it means. */
export const errorResponses = {
  400: ref('HTTPError', 'The request cannot be carried out as sent'),
  401: ref('HTTPError', 'Missing, expired or revoked credential'),
  403: ref('HTTPError', 'The credential lacks the permission'),
  404: ref('HTTPError', 'Not found, or belongs to a team you cannot see'),
  409: ref('HTTPError', 'Conflict with the current state'),
  413: ref('HTTPError', 'The body is too large'),
  415: ref('HTTPError', 'The body is not of a type this operation takes'),
  422: ref('HTTPValidationError', 'Validation error'),
  429: ref('HTTPError', 'Too many requests: see Retry-After'),
  503: ref('HTTPError', 'A service this operation needs is unavailable: try again later'),
} as const;

export type ErrorStatus = keyof typeof errorResponses;

/**
 * A route's `response` map: its success schemas, then the error statuses it answers, each as
 * `{"detail": …}` (422: the validation error list) with the shared description, or as
 * `[status, description]` to say what it means on this route:
 *
 *     response: responses({ 200: Agent }, 401, 403, 404, 422)
 *     response: responses({ 200: Policy }, 400, 401, [413, 'The file is larger than 10 MB'], 422)
 */
export function responses<const S extends Record<number, TSchema>>(success: S, ...errors: Array<ErrorStatus | readonly [ErrorStatus, string]>) {
  const map: Record<number, TSchema> = { ...success };
  for (const error of errors) {
    if (typeof error === 'number') map[error] = errorResponses[error];
    else map[error[0]] = ref(error[0] === 422 ? 'HTTPValidationError' : 'HTTPError', error[1]);
  }
  return map as S & Record<ErrorStatus, TSchema>;
}

export const listOf = <T extends TSchema>(item: T, title: string) =>
  Type.Object({ results: Type.Array(item), count: Type.Integer() }, { title });

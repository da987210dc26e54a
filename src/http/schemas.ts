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

/** Error responses every authenticated route may answer with. */
export const errorResponses = {
  400: ref('HTTPError', 'The request cannot be carried out as sent'),
  401: ref('HTTPError', 'Missing, expired or revoked credential'),
  403: ref('HTTPError', 'The credential lacks the permission'),
  404: ref('HTTPError', 'Not found, or belongs to a team you cannot see'),
  409: ref('HTTPError', 'Conflict with the current state'),
  422: ref('HTTPValidationError', 'Validation error'),
  429: ref('HTTPError', 'Too many requests: see Retry-After'),
} as const;

export const listOf = <T extends TSchema>(item: T, title: string) =>
  Type.Object({ results: Type.Array(item), count: Type.Integer() }, { title });

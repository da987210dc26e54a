import { Type, type Static, type TSchema } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';

const Str = (max: number, options: { minLength?: number; description?: string } = {}) => Type.String({ maxLength: max, ...options });
const OptNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const DemographicValue = Type.Object(
  {
    id: Uuid(),
    dimension_id: Uuid(),
    value: Type.String(),
    display_name: Nullable(Type.String()),
    value_metadata: Nullable(FreeObject()),
    sort_order: Type.Integer(),
    created_at: EpochSeconds(),
  },
  { title: 'DemographicValue' },
);
export type DemographicValueOut = Static<typeof DemographicValue>;

export const DemographicDimension = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    display_name: Type.String(),
    protected_class: Type.Boolean(),
    description: Nullable(Type.String()),
    created_at: EpochSeconds(),
    values: Nullable(Type.Array(DemographicValue)),
  },
  { title: 'DemographicDimension' },
);
export type DemographicDimensionOut = Static<typeof DemographicDimension>;

const DimensionName = Str(100, { minLength: 1, description: 'Unique name, used as the template variable (e.g. age_band)' });

export const DemographicDimensionCreate = Type.Object(
  {
    name: DimensionName,
    display_name: Str(255, { minLength: 1 }),
    protected_class: Type.Optional(Type.Boolean({ default: true })),
    description: OptNullable(Str(10_000)),
  },
  { title: 'DemographicDimensionCreate' },
);
export type DemographicDimensionCreateBody = Static<typeof DemographicDimensionCreate>;

export const DemographicDimensionUpdate = Type.Object(
  {
    display_name: OptNullable(Str(255, { minLength: 1 })),
    protected_class: OptNullable(Type.Boolean()),
    description: OptNullable(Str(10_000)),
  },
  { title: 'DemographicDimensionUpdate' },
);
export type DemographicDimensionUpdateBody = Static<typeof DemographicDimensionUpdate>;

/** `sort_order` is an `integer` column: the 32-bit range both engines store. */
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

const Metadata = () => Type.Object({}, { additionalProperties: true, maxProperties: 100 });

export const DemographicValueCreate = Type.Object(
  {
    value: Str(255, { minLength: 1 }),
    display_name: OptNullable(Str(255)),
    metadata: OptNullable(Metadata()),
    sort_order: Type.Optional(Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, default: 0 })),
  },
  { title: 'DemographicValueCreate' },
);
export type DemographicValueCreateBody = Static<typeof DemographicValueCreate>;

export const DemographicValueUpdate = Type.Object(
  {
    value: OptNullable(Str(255, { minLength: 1 })),
    display_name: OptNullable(Str(255)),
    metadata: OptNullable(Metadata()),
    sort_order: OptNullable(Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX })),
  },
  { title: 'DemographicValueUpdate' },
);
export type DemographicValueUpdateBody = Static<typeof DemographicValueUpdate>;

export const BulkValuesRequest = Type.Object(
  { values: Type.Array(DemographicValueCreate, { maxItems: 1000, description: 'Up to 1 000 values; an empty list adds nothing' }) },
  { title: 'BulkValuesRequest' },
);

export const DimensionListQuery = Type.Object({
  protected_class_only: Type.Optional(Type.Boolean({ description: 'Only protected class dimensions' })),
  limit: Type.Integer({ minimum: 1, maximum: 250, default: 100, description: 'Maximum number of results' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip' }),
});

export const ValueListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 250, description: 'Maximum number of results' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip' }),
});

export const DimensionIdParams = Type.Object({ dimension_id: Uuid() });
export const ValueIdParams = Type.Object({ value_id: Uuid() });
/**
 * A plain string, as the reference declares it (not bounded like DimensionCreate.name): a name
 * no dimension has, however long or odd, is a 404, not a 422. The router bounds its length.
 */
export const DimensionNameParams = Type.Object({ name: Type.String({ description: 'The dimension name, matched exactly' }) });

export const DimensionListResponse = Type.Object(
  { results: Type.Array(DemographicDimension), count: Type.Integer() },
  { title: 'DimensionListResponse' },
);
export const ValueListResponse = Type.Object(
  { results: Type.Array(DemographicValue), count: Type.Integer() },
  { title: 'ValueListResponse' },
);

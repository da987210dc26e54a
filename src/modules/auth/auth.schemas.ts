import { Type } from 'typebox';
import { EpochSeconds, Nullable, Uuid } from '../../http/schemas.js';
import { PERMISSIONS } from './permissions.js';

export const LoginRequest = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { title: 'LoginRequest' },
);

export const TokenResponse = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('bearer') },
  { title: 'TokenResponse', additionalProperties: true },
);

export const ChangePasswordRequest = Type.Object(
  { current_password: Type.String({ maxLength: 1024 }), new_password: Type.String({ minLength: 8, maxLength: 1024 }) },
  { title: 'ChangePasswordRequest' },
);

export const Detail = Type.Object({ detail: Type.String() }, { additionalProperties: true });

const PermissionName = Type.Unsafe<string>({ type: 'string', enum: [...PERMISSIONS], title: 'Permission' });

export const ApiKeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    permissions: Type.Optional(
      Nullable(Type.Array(PermissionName, { maxItems: PERMISSIONS.length, description: 'Limit the key to these permissions; omit for all of yours' })),
    ),
    expires_at: Type.Optional(Nullable(EpochSeconds({ description: 'When the key stops working (epoch seconds)' }))),
  },
  { title: 'ApiKeyCreate' },
);

export const ApiKey = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    permissions: Nullable(Type.Array(Type.String())),
    created_at: EpochSeconds(),
    expires_at: Nullable(EpochSeconds()),
    last_used_at: Nullable(EpochSeconds()),
    revoked_at: Nullable(EpochSeconds()),
  },
  { title: 'ApiKey' },
);

export const ApiKeyCreated = Type.Object(
  { ...ApiKey.properties, key: Type.String({ description: 'The secret: shown once, never again' }) },
  { title: 'ApiKeyCreated' },
);

export const ApiKeyList = Type.Object({ results: Type.Array(ApiKey), count: Type.Integer() }, { title: 'ApiKeyList' });

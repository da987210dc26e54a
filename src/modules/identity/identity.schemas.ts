import { Type } from 'typebox';
import { EpochSeconds, Nullable, Uuid } from '../../http/schemas.js';
import { TEAM_ROLES } from '../auth/permissions.js';

const Email = Type.String({ format: 'email', maxLength: 320 });
const Name = Nullable(Type.String({ maxLength: 255 }));
const ProfileImage = Nullable(Type.String({ format: 'uri', minLength: 1, maxLength: 2083 }));

export const TeamRoleSchema = Type.Union(TEAM_ROLES.map((r) => Type.Literal(r)), { title: 'TeamRole' });
export const TeamRoleEnum = Type.Unsafe<(typeof TEAM_ROLES)[number]>({ type: 'string', enum: [...TEAM_ROLES], title: 'TeamRole' });

export const UserRead = Type.Object(
  {
    id: Uuid(),
    email: Type.String(),
    is_active: Type.Boolean(),
    is_superuser: Type.Boolean(),
    is_verified: Type.Boolean(),
    given_name: Nullable(Type.String()),
    family_name: Nullable(Type.String()),
    external_user_id: Nullable(Type.String()),
    profile_image: Nullable(Type.String()),
    password_change_required: Type.Boolean(),
    is_super_admin: Type.Boolean(),
  },
  { title: 'UserRead' },
);

export const CreateUserRequest = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: 8, maxLength: 1024 }),
    given_name: Type.Optional(Name),
    family_name: Type.Optional(Name),
    external_user_id: Type.Optional(Name),
    profile_image: Type.Optional(ProfileImage),
    team_id: Uuid({ description: 'ID of the team to assign the user to' }),
    password_change_required: Type.Optional(Type.Boolean({ default: true })),
  },
  { title: 'CreateUserRequest' },
);

/** Optional in the schema as in the reference; the service answers its absence with a 422 `missing`. */
export const UserByEmailQuery = Type.Object({
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Email address of the user to retrieve (required in practice)' })),
});
export const UserIdParams = Type.Object({ user_id: Uuid() });
export const TeamIdParams = Type.Object({ team_id: Uuid() });
export const InvitationIdParams = Type.Object({ invitation_id: Uuid() });

export const TeamCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  },
  { title: 'TeamCreate' },
);
export const TeamCreateQuery = Type.Object({ owner_id: Uuid() });

export const Team = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    created_by: Uuid(),
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
  },
  { title: 'Team' },
);

export const Membership = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    user_id: Uuid(),
    role: TeamRoleEnum,
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
  },
  { title: 'Membership' },
);

export const MembershipWithTeam = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    user_id: Uuid(),
    role: TeamRoleEnum,
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
    team_name: Type.String(),
    team_description: Nullable(Type.String()),
  },
  { title: 'MembershipWithTeam' },
);

export const TeamUser = Type.Object(
  {
    id: Uuid(),
    email: Type.String(),
    given_name: Nullable(Type.String()),
    family_name: Nullable(Type.String()),
    external_user_id: Nullable(Type.String()),
    profile_image: Nullable(Type.String()),
    is_active: Type.Boolean(),
    is_verified: Type.Boolean(),
    is_super_admin: Type.Boolean(),
    role: TeamRoleEnum,
    membership_id: Uuid(),
    joined_at: EpochSeconds(),
  },
  { title: 'TeamUser' },
);

export const InviteUserRequest = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320, description: 'Email address of the user to invite' }),
    role: Type.Optional(TeamRoleEnum),
  },
  { title: 'InviteUserRequest' },
);

export const Invitation = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    email: Type.String(),
    invited_by: Uuid(),
    role: TeamRoleEnum,
    status: Type.Unsafe<string>({ type: 'string', enum: ['PENDING', 'ACCEPTED', 'DECLINED', 'EXPIRED'], title: 'InvitationStatus' }),
    created_at: EpochSeconds(),
    expires_at: EpochSeconds(),
  },
  { title: 'Invitation' },
);

// Team administration (issue 17, additions: the reference has none of these operations).

export const TeamListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Maximum number of results' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip' }),
});

export const TeamList = Type.Object(
  { results: Type.Array(Team), count: Type.Integer({ description: 'Every team you can see, not the page size' }) },
  { title: 'TeamList' },
);

export const TeamMemberParams = Type.Object({ team_id: Uuid(), user_id: Uuid() });

export const TeamMemberUpdate = Type.Object({ role: TeamRoleEnum }, { title: 'TeamMemberUpdate' });

import type { Static } from 'typebox';
import type { TeamRole } from '../auth/permissions.js';
import type { InvitationRow, MembershipRow, TeamRow, UserRow } from './identity.repo.js';
import type { Invitation, Membership, MembershipWithTeam, Team, TeamUser, UserRead } from './identity.schemas.js';

/** API objects of the identity module, built field by field from rows: a new column never leaks (a password hash least of all). */

export function toUserRead(row: UserRow): Static<typeof UserRead> {
  return {
    id: row.id,
    email: row.email,
    is_active: row.is_active === 1,
    is_superuser: row.is_super_admin === 1,
    is_verified: row.is_verified === 1,
    given_name: row.given_name,
    family_name: row.family_name,
    external_user_id: row.external_user_id,
    profile_image: row.profile_image,
    password_change_required: row.password_change_required === 1,
    is_super_admin: row.is_super_admin === 1,
  };
}

export function toTeam(row: TeamRow): Static<typeof Team> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toMembership(row: MembershipRow): Static<typeof Membership> {
  return {
    id: row.id,
    team_id: row.team_id,
    user_id: row.user_id,
    role: row.role as TeamRole,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toMembershipWithTeam(row: MembershipRow & { team_name: string; team_description: string | null }): Static<typeof MembershipWithTeam> {
  return { ...toMembership(row), team_name: row.team_name, team_description: row.team_description };
}

export function toTeamUser(row: UserRow & { role: string; membership_id: string; joined_at: number }): Static<typeof TeamUser> {
  return {
    id: row.id,
    email: row.email,
    given_name: row.given_name,
    family_name: row.family_name,
    external_user_id: row.external_user_id,
    profile_image: row.profile_image,
    is_active: row.is_active === 1,
    is_verified: row.is_verified === 1,
    is_super_admin: row.is_super_admin === 1,
    role: row.role as TeamRole,
    membership_id: row.membership_id,
    joined_at: row.joined_at,
  };
}

export function toInvitation(row: InvitationRow): Static<typeof Invitation> {
  return {
    id: row.id,
    team_id: row.team_id,
    email: row.email,
    invited_by: row.invited_by,
    role: row.role as TeamRole,
    status: row.status,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

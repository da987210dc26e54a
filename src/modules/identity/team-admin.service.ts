import type { Deps } from '../../deps.js';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { Principal, TeamRole } from '../auth/permissions.js';
import { authorize, credentialAllows, holds } from '../auth/permissions.js';
import * as repo from './identity.repo.js';
import { toInvitation, toTeam, toTeamUser } from './identity.mapping.js';

type TeamAdminDeps = Pick<Deps, 'db' | 'dialect' | 'now'>;

/**
 * Team administration a console needs (issue 17, additions): the teams one can see, a team's
 * pending invitations, a member's role, removing a member. Ownership follows the invitation
 * rule: only an OWNER (or a super admin) makes, changes or removes an OWNER, and a team always
 * keeps one.
 */
export function createTeamAdminService(deps: TeamAdminDeps) {
  const { db, dialect, now } = deps;

  /** The member to change, after the ownership checks, with the team locked (`trx`). */
  async function memberToChange(trx: typeof db, principal: Principal, teamId: string, userId: string, newRole: TeamRole | null) {
    if ((await repo.lockTeam(trx, teamId, dialect)) === undefined) throw notFound('Team');
    const member = await repo.findTeamUser(trx, teamId, userId);
    if (member === undefined) throw notFound('Team member');
    const touchesOwner = member.role === 'OWNER' || newRole === 'OWNER';
    if (touchesOwner && principal.memberships.get(teamId) !== 'OWNER' && !principal.isSuperAdmin) {
      throw new AppError('forbidden', 'Only a team owner can make, change or remove an owner');
    }
    if (member.role === 'OWNER' && newRole !== 'OWNER' && (await repo.countOwners(trx, teamId)) === 1) {
      throw conflict('This is the team\'s only owner: make another member OWNER first');
    }
    return member;
  }

  return {
    /**
     * A super admin (whose credential allows team:read_all) sees every team; anyone else the
     * teams they are a member of (none: an empty page).
     */
    async listTeams(principal: Principal, page: { limit: number; offset: number }) {
      const all = principal.isSuperAdmin && credentialAllows(principal, 'team:read_all');
      if (!all && !credentialAllows(principal, 'team:read')) throw forbidden('team:read');
      const ids = all ? null : [...principal.memberships.keys()].filter((teamId) => holds(principal, 'team:read', teamId));
      if (ids !== null && ids.length === 0) return { results: [], count: 0 };
      const [rows, count] = await Promise.all([repo.listTeams(db, ids, page.limit, page.offset), repo.countTeams(db, ids)]);
      return { results: rows.map(toTeam), count };
    },

    /** Invitations of the team that can still be accepted (PENDING and not expired). */
    async listInvitations(principal: Principal, teamId: string) {
      authorize(principal, 'team:invite', teamId, 'Team');
      if ((await repo.findTeam(db, teamId)) === undefined) throw notFound('Team');
      return (await repo.listPendingInvitations(db, teamId, now())).map(toInvitation);
    },

    async updateMemberRole(principal: Principal, teamId: string, userId: string, role: TeamRole) {
      authorize(principal, 'team:write_user', teamId, 'Team');
      return db.transaction().execute(async (trx) => {
        const member = await memberToChange(trx, principal, teamId, userId, role);
        if (member.role !== role) await repo.updateMembershipRole(trx, member.membership_id, role, now());
        return toTeamUser({ ...member, role });
      });
    },

    async removeMember(principal: Principal, teamId: string, userId: string) {
      authorize(principal, 'team:write_user', teamId, 'Team');
      await db.transaction().execute(async (trx) => {
        const member = await memberToChange(trx, principal, teamId, userId, null);
        await repo.deleteMembership(trx, member.membership_id);
      });
    },
  };
}

export type TeamAdminService = ReturnType<typeof createTeamAdminService>;

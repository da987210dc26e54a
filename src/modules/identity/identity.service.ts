import type { Deps } from '../../deps.js';
import { hashPassword } from '../../crypto/passwords.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, conflict, invalid, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { Principal, TeamRole } from '../auth/permissions.js';
import { authorize, canSeeTeam, requireGlobal } from '../auth/permissions.js';
import * as repo from './identity.repo.js';
import type { InvitationRow, MembershipRow, TeamRow, UserRow } from './identity.repo.js';
import { toInvitation, toMembership, toMembershipWithTeam, toTeam, toTeamUser, toUserRead } from './identity.mapping.js';

type IdentityDeps = Pick<Deps, 'db' | 'now' | 'passwordHashCost'>;

/** Invitations stay open for a week. */
const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface CreateUserInput {
  email: string;
  password: string;
  team_id: string;
  given_name?: string | null | undefined;
  family_name?: string | null | undefined;
  external_user_id?: string | null | undefined;
  profile_image?: string | null | undefined;
  password_change_required?: boolean | undefined;
}

export function createIdentityService(deps: IdentityDeps) {
  const { db, now } = deps;

  async function visibleUser(principal: Principal, user: UserRow | undefined): Promise<UserRow> {
    if (user === undefined) throw notFound('User');
    if (user.id === principal.userId || principal.isSuperAdmin) return user;
    if (await repo.shareATeam(db, principal.userId, user.id)) return user;
    throw notFound('User');
  }

  /** Hashing is slow on purpose: it happens before any transaction opens. */
  async function buildUserRow(input: Omit<CreateUserInput, 'team_id'> & { is_super_admin?: boolean }): Promise<UserRow> {
    const at = now();
    return {
      id: newId(),
      email: input.email.trim().toLowerCase(),
      password_hash: await hashPassword(input.password, deps.passwordHashCost),
      given_name: input.given_name ?? null,
      family_name: input.family_name ?? null,
      external_user_id: input.external_user_id ?? null,
      profile_image: input.profile_image ?? null,
      is_active: 1,
      is_verified: 0,
      is_super_admin: input.is_super_admin ? 1 : 0,
      password_change_required: (input.password_change_required ?? true) ? 1 : 0,
      created_at: at,
      updated_at: at,
    };
  }

  async function insertUserRow(trx: typeof db, row: UserRow) {
    try {
      await repo.insertUser(trx, row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`A user with the email ${row.email} already exists`);
      throw error;
    }
  }

  return {
    async me(principal: Principal) {
      const user = await repo.findUserById(db, principal.userId);
      if (user === undefined) throw notFound('User');
      return toUserRead(user);
    },

    async myTeams(principal: Principal) {
      const rows = await repo.listTeamsOfUser(db, principal.userId);
      return rows.map(toMembershipWithTeam);
    },

    async getUser(principal: Principal, id: string) {
      return toUserRead(await visibleUser(principal, await repo.findUserById(db, id)));
    },

    async getUserByEmail(principal: Principal, email: string | undefined) {
      // The reference lists `email` as optional, but it is the only way to find a user here.
      if (email === undefined) throw invalid(['query', 'email'], 'Field required', 'missing');
      return toUserRead(await visibleUser(principal, await repo.findUserByEmail(db, email.trim())));
    },

    /** A team owner or admin (or a super admin) adds a new account straight into a team, as MEMBER. */
    async createUser(principal: Principal, input: CreateUserInput) {
      authorize(principal, 'team:write_user', input.team_id, 'Team');
      const team = await repo.findTeam(db, input.team_id);
      if (team === undefined) throw notFound('Team');
      // A team admin who chose the password must not keep the account: the person changes it
      // first. Only a super admin may create an account without that step.
      const user = await buildUserRow({ ...input, password_change_required: principal.isSuperAdmin ? input.password_change_required : true });
      await db.transaction().execute(async (trx) => {
        await insertUserRow(trx, user);
        await repo.insertMembership(trx, {
          id: newId(),
          team_id: team.id,
          user_id: user.id,
          role: 'MEMBER',
          created_at: user.created_at,
          updated_at: user.created_at,
        });
      });
      return toUserRead(user);
    },

    async createTeam(principal: Principal, ownerId: string, input: { name: string; description?: string | null | undefined }) {
      requireGlobal(principal, 'team:create_all');
      const owner = await repo.findUserById(db, ownerId);
      if (owner === undefined) throw notFound('Owner user');
      const at = now();
      const team: TeamRow = {
        id: newId(),
        name: input.name,
        description: input.description ?? null,
        created_by: principal.userId,
        created_at: at,
        updated_at: at,
      };
      await db.transaction().execute(async (trx) => {
        await repo.insertTeam(trx, team);
        await repo.insertMembership(trx, { id: newId(), team_id: team.id, user_id: owner.id, role: 'OWNER', created_at: at, updated_at: at });
      });
      return toTeam(team);
    },

    async getTeam(principal: Principal, teamId: string) {
      authorize(principal, 'team:read', teamId, 'Team');
      const team = await repo.findTeam(db, teamId);
      if (team === undefined) throw notFound('Team');
      return toTeam(team);
    },

    async listTeamUsers(principal: Principal, teamId: string) {
      authorize(principal, 'team:read', teamId, 'Team');
      if ((await repo.findTeam(db, teamId)) === undefined) throw notFound('Team');
      const rows = await repo.listUsersOfTeam(db, teamId);
      return rows.map(toTeamUser);
    },

    async invite(principal: Principal, teamId: string, input: { email: string; role?: TeamRole | undefined }) {
      authorize(principal, 'team:invite', teamId, 'Team');
      const role = input.role ?? 'MEMBER';
      // Only an owner (or a super admin) may hand out ownership.
      if (role === 'OWNER' && principal.memberships.get(teamId) !== 'OWNER' && !principal.isSuperAdmin) {
        throw new AppError('forbidden', 'Only a team owner can invite another owner');
      }
      if ((await repo.findTeam(db, teamId)) === undefined) throw notFound('Team');
      const email = input.email.trim().toLowerCase();
      const existing = await repo.findUserByEmail(db, email);
      if (existing !== undefined && (await repo.findMembership(db, teamId, existing.id)) !== undefined) {
        throw conflict(`${email} is already a member of this team`);
      }
      const at = now();
      const row: InvitationRow = {
        id: newId(),
        team_id: teamId,
        email,
        invited_by: principal.userId,
        role,
        status: 'PENDING',
        created_at: at,
        expires_at: at + INVITATION_TTL_SECONDS,
      };
      await repo.insertInvitation(db, row);
      return toInvitation(row);
    },

    /** Only the invited person accepts; to anyone else the invitation does not exist. */
    async acceptInvite(principal: Principal, invitationId: string) {
      const invitation = await repo.findInvitation(db, invitationId);
      if (invitation === undefined || invitation.email !== principal.email.toLowerCase()) throw notFound('Invitation');
      if (invitation.status !== 'PENDING') throw conflict(`This invitation is ${invitation.status.toLowerCase()}`);
      if (invitation.expires_at <= now()) {
        await repo.closeInvitation(db, invitation.id, 'EXPIRED');
        throw conflict('This invitation has expired: ask for a new one');
      }
      if (canSeeTeam({ ...principal, isSuperAdmin: false }, invitation.team_id)) {
        throw conflict('You are already a member of this team');
      }
      const at = now();
      const membership: MembershipRow = {
        id: newId(),
        team_id: invitation.team_id,
        user_id: principal.userId,
        role: invitation.role,
        created_at: at,
        updated_at: at,
      };
      await db.transaction().execute(async (trx) => {
        if (!(await repo.closeInvitation(trx, invitation.id, 'ACCEPTED'))) throw conflict('This invitation was already used');
        try {
          await repo.insertMembership(trx, membership);
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict('You are already a member of this team');
          throw error;
        }
      });
      return toMembership(membership);
    },

    /**
     * First start (CONTRACT.md): when the database has no user, create the super admin and
     * a first team. Returns false when there already are users.
     */
    async bootstrapAdmin(input: { email: string; password: string; teamName?: string }) {
      if ((await repo.countUsers(db)) > 0) return false;
      const user = await buildUserRow({ email: input.email, password: input.password, password_change_required: false, is_super_admin: true });
      // Several processes may start at once on one empty database: the loser of the race
      // finds the email taken (or a user present) and leaves the bootstrap to the winner.
      return db.transaction().execute(async (trx) => {
        if ((await repo.countUsers(trx)) > 0) return false;
        try {
          await repo.insertUser(trx, user);
        } catch (error) {
          if (isUniqueViolation(error)) return false;
          throw error;
        }
        const team: TeamRow = {
          id: newId(),
          name: input.teamName ?? 'Default team',
          description: 'Created at first start',
          created_by: user.id,
          created_at: user.created_at,
          updated_at: user.created_at,
        };
        await repo.insertTeam(trx, team);
        await repo.insertMembership(trx, {
          id: newId(),
          team_id: team.id,
          user_id: user.id,
          role: 'OWNER',
          created_at: user.created_at,
          updated_at: user.created_at,
        });
        return true;
      });
    },

    /** The CLI's `create-admin`: a super admin whatever the database holds (email must be new). */
    async createSuperAdmin(input: { email: string; password: string }) {
      const user = await buildUserRow({ email: input.email, password: input.password, password_change_required: false, is_super_admin: true });
      await insertUserRow(db, user);
      return toUserRead(user);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

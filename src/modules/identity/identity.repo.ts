import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB, InvitationsTable, MembershipsTable, TeamsTable, UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type InvitationRow = Selectable<InvitationsTable>;

export const findUserById = (db: Kysely<DB>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (db: Kysely<DB>, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

export const countUsers = async (db: Kysely<DB>) =>
  Number((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

export const insertUser = (db: Kysely<DB>, row: Insertable<UsersTable>) => db.insertInto('users').values(row).execute();

export const updateUser = (db: Kysely<DB>, id: string, patch: Updateable<UsersTable>) =>
  db.updateTable('users').set(patch).where('id', '=', id).execute();

export const insertTeam = (db: Kysely<DB>, row: Insertable<TeamsTable>) => db.insertInto('teams').values(row).execute();

export const findTeam = (db: Kysely<DB>, id: string) =>
  db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();

/** A team's name, null when it is gone (reports print it). */
export const teamName = async (db: Kysely<DB>, id: string) =>
  (await db.selectFrom('teams').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;

export const insertMembership = (db: Kysely<DB>, row: Insertable<MembershipsTable>) =>
  db.insertInto('memberships').values(row).execute();

export const findMembership = (db: Kysely<DB>, teamId: string, userId: string) =>
  db.selectFrom('memberships').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();

/** A user's memberships, oldest first: the first is the user's primary team. */
export const listMembershipsOfUser = (db: Kysely<DB>, userId: string) =>
  db
    .selectFrom('memberships')
    .select(['team_id', 'role'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const listTeamsOfUser = (db: Kysely<DB>, userId: string) =>
  db
    .selectFrom('memberships')
    .innerJoin('teams', 'teams.id', 'memberships.team_id')
    .select([
      'memberships.id',
      'memberships.team_id',
      'memberships.user_id',
      'memberships.role',
      'memberships.created_at',
      'memberships.updated_at',
      'teams.name as team_name',
      'teams.description as team_description',
    ])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.created_at')
    .orderBy('memberships.id')
    .execute();

export const listUsersOfTeam = (db: Kysely<DB>, teamId: string) =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .selectAll('users')
    .select(['memberships.id as membership_id', 'memberships.role', 'memberships.created_at as joined_at'])
    .where('memberships.team_id', '=', teamId)
    .orderBy('memberships.created_at')
    .orderBy('memberships.id')
    .execute();

/** Whether two users share at least one team. */
export const shareATeam = async (db: Kysely<DB>, a: string, b: string) =>
  (await db
    .selectFrom('memberships as m1')
    .innerJoin('memberships as m2', 'm2.team_id', 'm1.team_id')
    .select('m1.team_id')
    .where('m1.user_id', '=', a)
    .where('m2.user_id', '=', b)
    .limit(1)
    .executeTakeFirst()) !== undefined;

export const insertInvitation = (db: Kysely<DB>, row: Insertable<InvitationsTable>) =>
  db.insertInto('invitations').values(row).execute();

export const findInvitation = (db: Kysely<DB>, id: string) =>
  db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();

/** Moves an invitation out of PENDING; false when another request already did. */
export const closeInvitation = async (db: Kysely<DB>, id: string, status: string) => {
  const result = await db
    .updateTable('invitations')
    .set({ status })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

// Team administration (issue 17).

/** A page of teams in creation order; `ids` limits it to those teams (null: every team). */
export const listTeams = (db: Kysely<DB>, ids: readonly string[] | null, limit: number, offset: number) => {
  let query = db.selectFrom('teams').selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset);
  if (ids !== null) query = query.where('id', 'in', ids);
  return query.execute();
};

export const countTeams = async (db: Kysely<DB>, ids: readonly string[] | null) => {
  let query = db.selectFrom('teams').select((eb) => eb.fn.countAll().as('n'));
  if (ids !== null) query = query.where('id', 'in', ids);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

/** Invitations that can still be accepted, oldest first. */
export const listPendingInvitations = (db: Kysely<DB>, teamId: string, now: number) =>
  db
    .selectFrom('invitations')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('status', '=', 'PENDING')
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** One member of a team, in the shape of listUsersOfTeam's rows. */
export const findTeamUser = (db: Kysely<DB>, teamId: string, userId: string) =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .selectAll('users')
    .select(['memberships.id as membership_id', 'memberships.role', 'memberships.created_at as joined_at'])
    .where('memberships.team_id', '=', teamId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();

/**
 * Locks the team's row until the transaction ends (PostgreSQL; SQLite runs one write
 * transaction at a time), so that two changes of owners cannot both see another owner left.
 */
export const lockTeam = (db: Kysely<DB>, teamId: string, dialect: Dialect) => {
  const query = db.selectFrom('teams').select('id').where('id', '=', teamId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
};

export const countOwners = async (db: Kysely<DB>, teamId: string) => {
  const query = db.selectFrom('memberships').select((eb) => eb.fn.countAll().as('n')).where('team_id', '=', teamId).where('role', '=', 'OWNER');
  return Number((await query.executeTakeFirstOrThrow()).n);
};

export const updateMembershipRole = (db: Kysely<DB>, membershipId: string, role: string, at: number) =>
  db.updateTable('memberships').set({ role, updated_at: at }).where('id', '=', membershipId).execute();

export const deleteMembership = (db: Kysely<DB>, membershipId: string) => db.deleteFrom('memberships').where('id', '=', membershipId).execute();

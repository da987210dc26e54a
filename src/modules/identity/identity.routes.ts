import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/schemas.js';
import {
  CreateUserRequest,
  Invitation,
  InvitationIdParams,
  InviteUserRequest,
  Membership,
  MembershipWithTeam,
  Team,
  TeamCreate,
  TeamCreateQuery,
  TeamIdParams,
  TeamUser,
  UserByEmailQuery,
  UserIdParams,
  UserRead,
} from './identity.schemas.js';
import type { IdentityService } from './identity.service.js';

export const identityRoutes: FastifyPluginAsyncTypebox<{ identity: IdentityService }> = async (app, { identity }) => {
  app.get(
    '/v1/auth/users/me',
    {
      config: { beforePasswordChange: true },
      schema: { tags: ['Teams', 'auth'], summary: 'The authenticated user', response: responses({ 200: UserRead }, 401) },
    },
    async (request) => identity.me(request.principal),
  );

  const users = ['Teams', 'users'];
  app.post(
    '/v1/users/',
    {
      schema: {
        tags: users,
        summary: 'Create a user in a team (team owners and admins; super admins)',
        body: CreateUserRequest,
        response: responses({ 201: UserRead }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await identity.createUser(request.principal, request.body)),
  );
  app.get(
    '/v1/users/',
    {
      schema: {
        tags: users,
        summary: 'Find a user by email',
        querystring: UserByEmailQuery,
        response: responses({ 200: UserRead }, 401, 404, 422),
      },
    },
    async (request) => identity.getUserByEmail(request.principal, request.query.email),
  );
  app.get(
    '/v1/users/me',
    { config: { beforePasswordChange: true }, schema: { tags: users, summary: 'The authenticated user', response: responses({ 200: UserRead }, 401) } },
    async (request) => identity.me(request.principal),
  );
  app.get(
    '/v1/users/me/teams',
    {
      config: { beforePasswordChange: true },
      schema: {
        tags: users,
        summary: 'Your team memberships',
        response: responses({ 200: Type.Array(MembershipWithTeam) }, 401),
      },
    },
    async (request) => identity.myTeams(request.principal),
  );
  app.get(
    '/v1/users/:user_id',
    {
      schema: {
        tags: users,
        summary: 'Get a user (yourself, someone who shares a team with you, or anyone for a super admin)',
        params: UserIdParams,
        response: responses({ 200: UserRead }, 401, 404, 422),
      },
    },
    async (request) => identity.getUser(request.principal, request.params.user_id),
  );

  const teams = ['Teams', 'teams'];
  app.post(
    '/v1/teams/',
    {
      schema: {
        tags: teams,
        summary: 'Create a team (super admins)',
        querystring: TeamCreateQuery,
        body: TeamCreate,
        response: responses({ 201: Team }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await identity.createTeam(request.principal, request.query.owner_id, request.body)),
  );
  app.post(
    '/v1/teams/:team_id/invites',
    {
      schema: {
        tags: teams,
        summary: 'Invite a user to a team by email (team owners and admins; super admins)',
        params: TeamIdParams,
        body: InviteUserRequest,
        response: responses({ 201: Invitation }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await identity.invite(request.principal, request.params.team_id, request.body)),
  );
  app.post(
    '/v1/teams/invites/:invitation_id/accept',
    {
      schema: {
        tags: teams,
        summary: 'Accept an invitation addressed to you',
        params: InvitationIdParams,
        response: responses({ 201: Membership }, 401, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await identity.acceptInvite(request.principal, request.params.invitation_id)),
  );
  app.get(
    '/v1/teams/:team_id/users',
    {
      schema: {
        tags: teams,
        summary: "A team's members",
        params: TeamIdParams,
        response: responses({ 200: Type.Array(TeamUser) }, 401, 403, 404, 422),
      },
    },
    async (request) => identity.listTeamUsers(request.principal, request.params.team_id),
  );
  app.get(
    '/v1/teams/:team_id',
    {
      schema: {
        tags: teams,
        summary: 'Get a team',
        params: TeamIdParams,
        response: responses({ 200: Team }, 401, 403, 404, 422),
      },
    },
    async (request) => identity.getTeam(request.principal, request.params.team_id),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.js';
import { Invitation, TeamIdParams, TeamList, TeamListQuery, TeamMemberParams, TeamMemberUpdate, TeamUser } from './identity.schemas.js';
import type { TeamAdminService } from './team-admin.service.js';

const { 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 } = errorResponses;
const NoContent = Type.Null({ description: 'Removed' });

/** Team administration (issue 17): additions beside the reference's team operations. */
export const teamAdminRoutes: FastifyPluginAsyncTypebox<{ teams: TeamAdminService }> = async (app, { teams }) => {
  const tags = ['Teams', 'teams'];
  app.get(
    '/v1/teams/',
    {
      schema: {
        tags,
        summary: 'List the teams you can see: every team for a super admin, your own teams otherwise (addition)',
        querystring: TeamListQuery,
        response: { 200: TeamList, 401: e401, 403: e403, 422: e422 },
      },
    },
    async (request) => teams.listTeams(request.principal, request.query),
  );
  app.get(
    '/v1/teams/:team_id/invites',
    {
      schema: {
        tags,
        summary: "A team's pending invitations, oldest first (team owners and admins; super admins) (addition)",
        params: TeamIdParams,
        response: { 200: Type.Array(Invitation), 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => teams.listInvitations(request.principal, request.params.team_id),
  );
  app.patch(
    '/v1/teams/:team_id/users/:user_id',
    {
      schema: {
        tags,
        summary: "Change a member's role (team owners and admins; only an owner makes or changes an owner) (addition)",
        params: TeamMemberParams,
        body: TeamMemberUpdate,
        response: { 200: TeamUser, 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 },
      },
    },
    async (request) => teams.updateMemberRole(request.principal, request.params.team_id, request.params.user_id, request.body.role),
  );
  app.delete(
    '/v1/teams/:team_id/users/:user_id',
    {
      schema: {
        tags,
        summary: 'Remove a member from a team (team owners and admins; only an owner removes an owner) (addition)',
        params: TeamMemberParams,
        response: { 204: NoContent, 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 },
      },
    },
    async (request, reply) => {
      await teams.removeMember(request.principal, request.params.team_id, request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};

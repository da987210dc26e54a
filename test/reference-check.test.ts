import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installReferenceCheck, openApiPath } from './helpers/reference-check.js';

/** The check itself: it must catch a response outside the reference's schema. */
describe('reference check of responses', () => {
  async function appWith(routes: (app: FastifyInstance) => void) {
    const app: FastifyInstance = Fastify();
    routes(app);
    const check = installReferenceCheck(app);
    await app.ready();
    return { app, check };
  }

  it('spells Fastify path templates as the reference does', () => {
    expect(openApiPath('/v1/teams/:team_id/users')).toBe('/v1/teams/{team_id}/users');
  });

  it('refuses a body that is not the reference schema of the operation and status', async () => {
    const { app, check } = await appWith((a) => {
      a.get('/v1/agent-configurations/:id', async () => ({ id: 'not an agent' }));
      a.get('/v1/teams/:team_id', async (_req, reply) => reply.code(403).send({ message: 'no detail' }));
    });
    await expect(app.inject({ method: 'GET', url: '/v1/agent-configurations/0189' })).rejects.toThrow(/does not match reference GET \/v1\/agent-configurations\/\{id\} 200/);
    await expect(app.inject({ method: 'GET', url: '/v1/teams/x' })).rejects.toThrow(/CONTRACT.md error/);
    await expect(app.inject({ method: 'GET', url: '/v1/nothing-here' })).rejects.toThrow(/no route/);
    expect(check.checked).toBe(3);
  });

  it('checks an operation the reference lacks against the schema the route declares, and refuses one that declares none', async () => {
    const { app } = await appWith((a) => {
      a.get(
        '/v1/ours/declared',
        { schema: { response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } },
        async () => ({ n: 1 }),
      );
      a.get(
        '/v1/ours/wrong',
        { schema: { response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } },
        async (_r, reply) => reply.header('content-type', 'application/json').send(JSON.stringify({ n: 'one' })),
      );
      a.get('/v1/ours/undeclared', async () => ({ anything: true }));
    });
    expect((await app.inject({ method: 'GET', url: '/v1/ours/declared' })).statusCode).toBe(200);
    await expect(app.inject({ method: 'GET', url: '/v1/ours/wrong' })).rejects.toThrow(/does not match declared/);
    await expect(app.inject({ method: 'GET', url: '/v1/ours/undeclared' })).rejects.toThrow(/neither the reference nor the route declares/);
  });
});

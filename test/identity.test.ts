import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createUser, createWorld, login, uniqueEmail, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const post = (url: string, token: string | undefined, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('login, tokens and sessions', () => {
  it('logs in with email and password and answers a bearer token', async () => {
    const res = await post('/v1/auth/jwt/login', undefined, { email: world.teamA.member.email, password: world.teamA.member.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'bearer' });
    expect(typeof res.json().access_token).toBe('string');
    const me = await get('/v1/auth/users/me', res.json().access_token);
    expect(me.statusCode).toBe(200);
    expectReferenceShape(me.json(), 'UserRead');
    expect(me.json().email).toBe(world.teamA.member.email);
  });

  it('matches emails case-insensitively and refuses a wrong password or unknown email with 401', async () => {
    const upper = await post('/v1/auth/jwt/login', undefined, { email: world.teamA.member.email.toUpperCase(), password: world.teamA.member.password });
    expect(upper.statusCode).toBe(200);
    expectDetail(await post('/v1/auth/jwt/login', undefined, { email: world.teamA.member.email, password: 'wrong-password' }), 401);
    expectDetail(await post('/v1/auth/jwt/login', undefined, { email: 'nobody@example.com', password: 'whatever-1' }), 401);
    expect422(await post('/v1/auth/jwt/login', undefined, { email: 'x@example.com' }), ['body', 'password'], 'missing');
  });

  it('ends the session on logout: the token stops working', async () => {
    const token = await login(t.app, world.teamA.member.email, world.teamA.member.password);
    expect((await get('/v1/users/me', token)).statusCode).toBe(200);
    expect((await post('/v1/auth/jwt/logout', token)).statusCode).toBe(200);
    expectDetail(await get('/v1/users/me', token), 401);
    expectDetail(await post('/v1/auth/jwt/refresh', token), 401);
  });

  it('refreshes a token into a new one for the same session', async () => {
    const token = await login(t.app, world.teamA.member.email, world.teamA.member.password);
    t.clock.advance(5);
    const res = await post('/v1/auth/jwt/refresh', token);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().access_token;
    expect(fresh).not.toBe(token);
    expect((await get('/v1/users/me', fresh)).statusCode).toBe(200);
  });

  it('makes a new user change the password an admin set before anything else, ending other sessions', async () => {
    const email = uniqueEmail('pw');
    const created = await post('/v1/users/', world.teamA.owner.token, {
      email,
      password: 'set-by-admin-1',
      team_id: world.teamA.id,
      password_change_required: false,
    });
    expect(created.json().password_change_required).toBe(true); // only a super admin may waive it
    const token = await login(t.app, email, 'set-by-admin-1');
    const other = await login(t.app, email, 'set-by-admin-1');
    expect((await get('/v1/users/me', token)).json().password_change_required).toBe(true);
    expect((await get('/v1/users/me/teams', token)).statusCode).toBe(200);
    expectDetail(await get('/v1/agent-configurations/', token), 403);
    expectDetail(await post('/v1/api-keys/', token, { name: 'before the change' }), 403);
    expectDetail(await post('/v1/auth/change-password', token, { current_password: 'not-it-at-all', new_password: 'new-password-2' }), 401);
    expect422(
      await post('/v1/auth/change-password', token, { current_password: 'set-by-admin-1', new_password: 'short' }),
      ['body', 'new_password'],
      'string_too_short',
    );
    const res = await post('/v1/auth/change-password', token, { current_password: 'set-by-admin-1', new_password: 'new-password-2' });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().access_token;
    expect((await get('/v1/users/me', fresh)).json().password_change_required).toBe(false);
    expect((await get('/v1/agent-configurations/', fresh)).statusCode).toBe(200);
    expectDetail(await get('/v1/users/me', other), 401);
    expectDetail(await post('/v1/auth/jwt/login', undefined, { email, password: 'set-by-admin-1' }), 401);
    expect((await post('/v1/auth/jwt/login', undefined, { email, password: 'new-password-2' })).statusCode).toBe(200);
    const waived = await post('/v1/users/', world.admin.token, {
      email: uniqueEmail('waived'),
      password: 'set-by-admin-1',
      team_id: world.teamA.id,
      password_change_required: false,
    });
    expect(waived.json().password_change_required).toBe(false);
  });

  it('answers a wrong current password with 401 and a clear detail (the reference: UnauthenticatedException), the same password with 400', async () => {
    const actor = await createUser(t.app, world.teamA.owner.token, world.teamA.id, 'pw-wrong');
    const wrong = await post('/v1/auth/change-password', actor.token, { current_password: 'not-my-password', new_password: 'new-password-3' });
    expectDetail(wrong, 401);
    expect(wrong.json().detail).toBe('The current password is not correct');
    // The session is not the problem: it still works, and the password is unchanged.
    expect((await get('/v1/users/me', actor.token)).statusCode).toBe(200);
    expect((await post('/v1/auth/jwt/login', undefined, { email: actor.email, password: actor.password })).statusCode).toBe(200);
    const same = await post('/v1/auth/change-password', actor.token, { current_password: actor.password, new_password: actor.password });
    expectDetail(same, 400);
    expect(same.json().detail).toBe('The new password must differ from the current one');
  });

  it('refreshes a session for at most 30 days after its login', async () => {
    const token = await login(t.app, world.teamB.member.email, world.teamB.member.password);
    let current = token;
    for (let day = 0; day < 29; day++) {
      t.clock.advance(24 * 60 * 60);
      const res = await post('/v1/auth/jwt/refresh', current);
      expect(res.statusCode, `day ${day}`).toBe(200);
      current = res.json().access_token;
    }
    t.clock.advance(2 * 24 * 60 * 60);
    expectDetail(await post('/v1/auth/jwt/refresh', current), 401);
  });

  it('rejects malformed and foreign tokens', async () => {
    for (const header of ['Bearer', 'Bearer abc.def.ghi', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(5000)}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { authorization: header } });
      expectDetail(res, 401);
    }
  });
});

describe('token lifetime', () => {
  it('lasts 24 hours', async () => {
    const short = await buildTestApp({ tokenTtlSeconds: 24 * 60 * 60 });
    try {
      const email = uniqueEmail('ttl');
      await short.app.services.identity.bootstrapAdmin({ email, password: 'password-123' });
      const token = await login(short.app, email, 'password-123');
      short.clock.advance(24 * 60 * 60 - 1);
      expect((await short.app.inject({ method: 'GET', url: '/v1/users/me', headers: bearer(token) })).statusCode).toBe(200);
      short.clock.advance(2);
      const expired = await short.app.inject({ method: 'GET', url: '/v1/users/me', headers: bearer(token) });
      expectDetail(expired, 401);
      // An expired token of a live session can still be refreshed.
      const refreshed = await short.app.inject({ method: 'POST', url: '/v1/auth/jwt/refresh', headers: bearer(token) });
      expect(refreshed.statusCode).toBe(200);
      expect((await short.app.inject({ method: 'GET', url: '/v1/users/me', headers: bearer(refreshed.json().access_token) })).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe('API keys', () => {
  it('shows the secret once, authenticates with it, lists without it, and stops working when revoked', async () => {
    const created = await post('/v1/api-keys/', world.teamA.member.token, { name: 'ci', permissions: ['agent:read'] });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key.key).toMatch(/^wdn_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(key.permissions).toEqual(['agent:read']);
    const list = await get('/v1/api-keys/', world.teamA.member.token);
    expect(list.body).not.toContain(key.key);
    expect(list.body).not.toContain(key.key.slice(-43));
    expect(list.json().results.some((k: { id: string }) => k.id === key.id)).toBe(true);

    expect((await get('/v1/agent-configurations/', key.key)).statusCode).toBe(200);
    const stored = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(key.key.slice(-43));

    const revoke = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${key.id}`, headers: bearer(world.teamA.member.token) });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().revoked_at).toBe(t.clock.current);
    expectDetail(await get('/v1/agent-configurations/', key.key), 401);
  });

  it('limits a key to its permissions and its expiry', async () => {
    const readOnly = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    const create = await post('/v1/agent-configurations/', readOnly, { agent_name: 'a', model_name: 'm' });
    expectDetail(create, 403);
    const expiring = await createApiKey(t.app, world.teamA.member.token, undefined, t.clock.current + 60);
    expect((await get('/v1/users/me', expiring)).statusCode).toBe(200);
    t.clock.advance(61);
    expectDetail(await get('/v1/users/me', expiring), 401);
  });

  it('refuses a permission its owner lacks with a 422 naming it (issue 17), and grants the ones the owner holds', async () => {
    const lacking = await post('/v1/api-keys/', world.teamA.member.token, { name: 'x', permissions: ['agent:read', 'agent:read_all', 'team:invite'] });
    expect422(lacking, ['body', 'permissions', 1], 'value_error');
    const issues = lacking.json().detail as Array<{ loc: unknown[]; msg: string }>;
    expect(issues.map((i) => i.loc)).toEqual([
      ['body', 'permissions', 1],
      ['body', 'permissions', 2],
    ]);
    expect(issues[0]?.msg).toContain('"agent:read_all"');
    expect(issues[1]?.msg).toContain('"team:invite"');
    expect((await get('/v1/api-keys/', world.teamA.member.token)).json().results.some((k: { name: string }) => k.name === 'x')).toBe(false);
    // The team's owner holds team:invite; a super admin holds every permission.
    expect((await post('/v1/api-keys/', world.teamA.owner.token, { name: 'inviter', permissions: ['team:invite'] })).statusCode).toBe(201);
    expect((await post('/v1/api-keys/', world.admin.token, { name: 'all', permissions: ['agent:read_all', 'team:create_all'] })).statusCode).toBe(201);
    expect422(await post('/v1/api-keys/', world.teamA.owner.token, { name: 'y', permissions: ['team:create_all'] }), ['body', 'permissions', 0], 'value_error');
  });

  it('refuses unknown permission names, past expiry, keys made with keys, and revoking keys of others', async () => {
    expect422(await post('/v1/api-keys/', world.teamA.member.token, { name: 'x', permissions: ['agent:destroy'] }), ['body', 'permissions', 0], 'enum');
    expectDetail(await post('/v1/api-keys/', world.teamA.member.token, { name: 'x', expires_at: t.clock.current - 1 }), 400);
    const key = await createApiKey(t.app, world.teamA.member.token);
    expectDetail(await post('/v1/api-keys/', key, { name: 'child' }), 403);
    const mine = (await post('/v1/api-keys/', world.teamA.member.token, { name: 'mine' })).json();
    const theirs = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${mine.id}`, headers: bearer(world.teamB.member.token) });
    expectDetail(theirs, 404);
    expectDetail(await get('/v1/users/me', 'wdn_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 401);
  });
});

describe('users', () => {
  it('lets a team owner create a member, who then logs in', async () => {
    const email = uniqueEmail('new');
    const res = await post('/v1/users/', world.teamA.owner.token, { email, password: 'password-123', team_id: world.teamA.id, given_name: 'Ada' });
    expect(res.statusCode).toBe(201);
    expectReferenceShape(res.json(), 'UserRead');
    expect(res.json()).toMatchObject({ email, given_name: 'Ada', is_super_admin: false, password_change_required: true });
    const token = await login(t.app, email, 'password-123');
    const teams = (await get('/v1/users/me/teams', token)).json();
    expectReferenceShape(teams, 'MembershipWithTeam[]');
    expect(teams).toEqual([expect.objectContaining({ team_id: world.teamA.id, role: 'MEMBER', team_name: 'alpha' })]);
  });

  it('refuses members, other teams, duplicates and bad input', async () => {
    const body = { email: uniqueEmail('x'), password: 'password-123', team_id: world.teamA.id };
    expectDetail(await post('/v1/users/', world.teamA.member.token, body), 403);
    expectDetail(await post('/v1/users/', world.teamB.owner.token, body), 404);
    expect((await post('/v1/users/', world.teamA.owner.token, body)).statusCode).toBe(201);
    expectDetail(await post('/v1/users/', world.teamA.owner.token, { ...body, email: body.email.toUpperCase() }), 409);
    expect422(await post('/v1/users/', world.teamA.owner.token, { ...body, email: 'not-an-email' }), ['body', 'email'], 'value_error');
    expect422(
      await post('/v1/users/', world.teamA.owner.token, { ...body, email: uniqueEmail(), password: 'short' }),
      ['body', 'password'],
      'string_too_short',
    );
    expect422(await post('/v1/users/', world.teamA.owner.token, { email: uniqueEmail(), password: 'password-123' }), ['body', 'team_id'], 'missing');
  });

  it('shows a user to themselves, to teammates and to super admins only', async () => {
    const target = world.teamA.member;
    const byId = await get(`/v1/users/${target.id}`, world.teamA.owner.token);
    expect(byId.statusCode).toBe(200);
    expectReferenceShape(byId.json(), 'UserRead');
    expect((await get(`/v1/users/?email=${encodeURIComponent(target.email)}`, world.teamA.owner.token)).json().id).toBe(target.id);
    expectDetail(await get(`/v1/users/${target.id}`, world.teamB.member.token), 404);
    expectDetail(await get(`/v1/users/?email=${encodeURIComponent(target.email)}`, world.teamB.member.token), 404);
    expect((await get(`/v1/users/${target.id}`, world.admin.token)).statusCode).toBe(200);
    expect422(await get('/v1/users/not-a-uuid', world.admin.token), ['path', 'user_id'], 'uuid_parsing');
    expect422(await get('/v1/users/', world.admin.token), ['query', 'email'], 'missing');
  });
});

describe('teams and invitations', () => {
  it('lets only a super admin create a team, owned by owner_id', async () => {
    const owner = await createUser(t.app, world.admin.token, world.adminTeamId, 'gamma-owner');
    const res = await post(`/v1/teams/?owner_id=${owner.id}`, world.admin.token, { name: 'gamma', description: 'third team' });
    expect(res.statusCode).toBe(201);
    expectReferenceShape(res.json(), 'Team');
    expect(res.json()).toMatchObject({ name: 'gamma', description: 'third team', created_by: world.admin.id });
    const users = (await get(`/v1/teams/${res.json().id}/users`, owner.token)).json();
    expectReferenceShape(users, 'TeamUser[]');
    expect(users).toEqual([expect.objectContaining({ id: owner.id, role: 'OWNER' })]);

    expectDetail(await post(`/v1/teams/?owner_id=${owner.id}`, world.teamA.owner.token, { name: 'nope' }), 403);
    expectDetail(await post('/v1/teams/?owner_id=01890000-0000-7000-8000-000000000000', world.admin.token, { name: 'nope' }), 404);
    expect422(await post(`/v1/teams/?owner_id=${owner.id}`, world.admin.token, { name: '' }), ['body', 'name'], 'string_too_short');
    expect422(await post('/v1/teams/', world.admin.token, { name: 'x' }), ['query', 'owner_id'], 'missing');
  });

  it('shows a team and its members to members and super admins, and 404 to others', async () => {
    const team = await get(`/v1/teams/${world.teamA.id}`, world.teamA.member.token);
    expect(team.statusCode).toBe(200);
    expectReferenceShape(team.json(), 'Team');
    const users = (await get(`/v1/teams/${world.teamA.id}/users`, world.teamA.member.token)).json();
    expect(users.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([world.teamA.owner.id, world.teamA.member.id]));
    expectDetail(await get(`/v1/teams/${world.teamA.id}`, world.teamB.member.token), 404);
    expectDetail(await get(`/v1/teams/${world.teamA.id}/users`, world.teamB.member.token), 404);
    expect((await get(`/v1/teams/${world.teamA.id}`, world.admin.token)).statusCode).toBe(200);
  });

  it('invites an existing user, who accepts and joins with the role', async () => {
    const invitee = await createUser(t.app, world.teamB.owner.token, world.teamB.id, 'invitee');
    const invite = await post(`/v1/teams/${world.teamA.id}/invites`, world.teamA.owner.token, { email: invitee.email, role: 'ADMIN' });
    expect(invite.statusCode).toBe(201);
    expectReferenceShape(invite.json(), 'Invitation');
    expect(invite.json()).toMatchObject({ status: 'PENDING', role: 'ADMIN', invited_by: world.teamA.owner.id });

    expectDetail(await post(`/v1/teams/invites/${invite.json().id}/accept`, world.teamB.member.token), 404);
    const accepted = await post(`/v1/teams/invites/${invite.json().id}/accept`, invitee.token);
    expect(accepted.statusCode).toBe(201);
    expectReferenceShape(accepted.json(), 'Membership');
    expect(accepted.json()).toMatchObject({ team_id: world.teamA.id, user_id: invitee.id, role: 'ADMIN' });
    expectDetail(await post(`/v1/teams/invites/${invite.json().id}/accept`, invitee.token), 409);
    expect((await get(`/v1/teams/${world.teamA.id}`, invitee.token)).statusCode).toBe(200);
    expectDetail(await post(`/v1/teams/${world.teamA.id}/invites`, world.teamA.owner.token, { email: invitee.email }), 409);
  });

  it('keeps invitations to owners and admins, and expires them after a week', async () => {
    expectDetail(await post(`/v1/teams/${world.teamA.id}/invites`, world.teamA.member.token, { email: uniqueEmail() }), 403);
    expectDetail(await post(`/v1/teams/${world.teamA.id}/invites`, world.teamB.owner.token, { email: uniqueEmail() }), 404);
    expect422(await post(`/v1/teams/${world.teamA.id}/invites`, world.teamA.owner.token, { email: 'x@example.com', role: 'KING' }), ['body', 'role'], 'enum');
    const late = await createUser(t.app, world.teamB.owner.token, world.teamB.id, 'late');
    const invite = (await post(`/v1/teams/${world.teamA.id}/invites`, world.teamA.owner.token, { email: late.email })).json();
    t.clock.advance(7 * 24 * 60 * 60 + 1);
    expectDetail(await post(`/v1/teams/invites/${invite.id}/accept`, late.token), 409);
    expectDetail(await get(`/v1/teams/${world.teamA.id}`, late.token), 404);
  });
});

describe('first start', () => {
  it('creates the super admin and a first team only when there is no user', async () => {
    const fresh = await buildTestApp();
    try {
      expect(await fresh.app.services.identity.bootstrapAdmin({ email: 'first@example.com', password: 'password-123' })).toBe(true);
      expect(await fresh.app.services.identity.bootstrapAdmin({ email: 'second@example.com', password: 'password-123' })).toBe(false);
      const token = await login(fresh.app, 'first@example.com', 'password-123');
      const me = (await fresh.app.inject({ method: 'GET', url: '/v1/users/me', headers: bearer(token) })).json();
      expect(me).toMatchObject({ is_super_admin: true, is_superuser: true, password_change_required: false });
      const teams = (await fresh.app.inject({ method: 'GET', url: '/v1/users/me/teams', headers: bearer(token) })).json();
      expect(teams).toEqual([expect.objectContaining({ role: 'OWNER' })]);
      expectDetail(
        await fresh.app.inject({ method: 'POST', url: '/v1/auth/jwt/login', payload: { email: 'second@example.com', password: 'password-123' } }),
        401,
      );
    } finally {
      await fresh.close();
    }
  });
});

describe('HTTP conventions', () => {
  it('answers a collection path with or without its trailing slash', async () => {
    expect((await get('/v1/agent-configurations', world.teamA.member.token)).statusCode).toBe(200);
    expect((await get('/v1/agent-configurations/', world.teamA.member.token)).statusCode).toBe(200);
    expect((await get('/v1/users/me/teams/', world.teamA.member.token)).statusCode).toBe(200);
  });

  it('serves the OpenAPI description and the docs page', async () => {
    const spec = await get('/openapi.json');
    expect(spec.statusCode).toBe(200);
    expect(Object.keys(spec.json().paths)).toEqual(
      expect.arrayContaining(['/v1/agent-configurations/{id}/lifecycle', '/v1/agent-configurations/{id}', '/v1/auth/jwt/login']),
    );
    expect((await get('/docs/')).statusCode).toBe(200);
  });

  it('answers unknown routes with a 404 detail', async () => {
    expectDetail(await get('/v1/nothing-here', world.teamA.member.token), 404);
  });
});

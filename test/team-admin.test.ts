import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createTeam, createUser, createWorld, login, uniqueEmail, type Actor, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';

/** Issue 17, item 6: team administration a console needs (additions to the reference). */
let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true });
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const call = (method: string, url: string, token: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
const teamIds = (res: { json(): { results: Array<{ id: string }> } }) => res.json().results.map((team) => team.id);
const roleOf = async (teamId: string, userId: string) =>
  ((await call('GET', `/v1/teams/${teamId}/users`, world.admin.token)).json() as Array<{ id: string; role: string }>).find((u) => u.id === userId)?.role;

describe('GET /v1/teams/', () => {
  it('lists every team to a super admin, in creation order, with the count of all and pages', async () => {
    const all = await call('GET', '/v1/teams/', world.admin.token);
    expect(all.statusCode).toBe(200);
    expect(teamIds(all)).toEqual([world.adminTeamId, world.teamA.id, world.teamB.id]);
    expect(all.json().count).toBe(3);
    for (const team of all.json().results) expectReferenceShape(team, 'Team');
    const page = await call('GET', '/v1/teams/?limit=1&offset=1', world.admin.token);
    expect(teamIds(page)).toEqual([world.teamA.id]);
    expect(page.json().count).toBe(3);
    expect422(await call('GET', '/v1/teams/?limit=1001', world.admin.token), ['query', 'limit'], 'less_than_equal');
  });

  it("lists only a person's own teams to anyone else, and none of another team's", async () => {
    const member = await call('GET', '/v1/teams/', world.teamB.member.token);
    expect(teamIds(member)).toEqual([world.teamB.id]);
    expect(member.json().count).toBe(1);
    // The owner of team A was created in the admin's team first: both are theirs.
    expect(teamIds(await call('GET', '/v1/teams/', world.teamA.owner.token))).toEqual([world.adminTeamId, world.teamA.id]);
  });

  it("follows the credential: a super admin's key without team:read_all sees the admin's own teams, one without team:read is refused", async () => {
    const ownOnly = await createApiKey(t.app, world.admin.token, ['team:read']);
    expect(teamIds(await call('GET', '/v1/teams/', ownOnly))).toEqual([world.adminTeamId]);
    const everything = await createApiKey(t.app, world.admin.token, ['team:read_all']);
    expect((await call('GET', '/v1/teams/', everything)).json().count).toBe(3);
    expectDetail(await call('GET', '/v1/teams/', await createApiKey(t.app, world.teamA.member.token, ['agent:read'])), 403);
  });
});

describe('GET /v1/teams/{team_id}/invites', () => {
  it('lists the invitations that can still be accepted: not accepted ones, not expired ones', async () => {
    const { id: teamId, owner } = await createTeam(t.app, world.admin, world.adminTeamId, 'inviting');
    const invite = async (email: string) => (await call('POST', `/v1/teams/${teamId}/invites`, owner.token, { email, role: 'ADMIN' })).json();
    await invite(uniqueEmail('late'));
    t.clock.advance(8 * 24 * 60 * 60); // past the 7 days of the first one
    const waiting = await invite(uniqueEmail('waiting'));
    const joiner = await createUser(t.app, world.admin.token, world.adminTeamId, 'joiner');
    const accepted = await invite(joiner.email);
    expect((await call('POST', `/v1/teams/invites/${accepted.id}/accept`, joiner.token)).statusCode).toBe(201);

    const res = await call('GET', `/v1/teams/${teamId}/invites`, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([waiting]);
    expectReferenceShape(res.json()[0], 'Invitation');
    expect((await call('GET', `/v1/teams/${teamId}/invites`, world.admin.token)).json()).toEqual([waiting]);
  });

  it('is for team owners and admins: 403 to a member, 404 to another team and for a team that does not exist', async () => {
    expectDetail(await call('GET', `/v1/teams/${world.teamA.id}/invites`, world.teamA.member.token), 403);
    expectDetail(await call('GET', `/v1/teams/${world.teamA.id}/invites`, world.teamB.owner.token), 404);
    expectDetail(await call('GET', '/v1/teams/01890000-0000-7000-8000-000000000000/invites', world.admin.token), 404);
  });
});

describe('PATCH /v1/teams/{team_id}/users/{user_id}', () => {
  let teamId: string;
  let owner: Actor;
  let member: Actor;
  beforeAll(async () => {
    ({ id: teamId, owner, member } = await createTeam(t.app, world.admin, world.adminTeamId, 'roles'));
  });

  it("changes a member's role, answers the member, and the role takes effect at once", async () => {
    expectDetail(await call('POST', `/v1/teams/${teamId}/invites`, member.token, { email: uniqueEmail('x') }), 403);
    const res = await call('PATCH', `/v1/teams/${teamId}/users/${member.id}`, owner.token, { role: 'ADMIN' });
    expect(res.statusCode).toBe(200);
    expectReferenceShape(res.json(), 'TeamUser');
    expect(res.json()).toMatchObject({ id: member.id, email: member.email, role: 'ADMIN' });
    expect(await roleOf(teamId, member.id)).toBe('ADMIN');
    expect((await call('POST', `/v1/teams/${teamId}/invites`, member.token, { email: uniqueEmail('x') })).statusCode).toBe(201);
    // The same role again changes nothing and is no error.
    expect((await call('PATCH', `/v1/teams/${teamId}/users/${member.id}`, owner.token, { role: 'ADMIN' })).json().role).toBe('ADMIN');
  });

  it('lets only an owner make or change an owner, and keeps at least one owner', async () => {
    const admin = member; // made ADMIN above
    const other = await createUser(t.app, owner.token, teamId, 'other');
    expectDetail(await call('PATCH', `/v1/teams/${teamId}/users/${other.id}`, admin.token, { role: 'OWNER' }), 403);
    expectDetail(await call('PATCH', `/v1/teams/${teamId}/users/${owner.id}`, admin.token, { role: 'MEMBER' }), 403);
    expect((await call('PATCH', `/v1/teams/${teamId}/users/${other.id}`, admin.token, { role: 'ADMIN' })).statusCode).toBe(200);
    const last = await call('PATCH', `/v1/teams/${teamId}/users/${owner.id}`, owner.token, { role: 'ADMIN' });
    expectDetail(last, 409);
    expect(last.json().detail).toContain('only owner');
    expect((await call('PATCH', `/v1/teams/${teamId}/users/${other.id}`, owner.token, { role: 'OWNER' })).statusCode).toBe(200);
    expect((await call('PATCH', `/v1/teams/${teamId}/users/${owner.id}`, other.token, { role: 'MEMBER' })).statusCode).toBe(200);
    expect(await roleOf(teamId, owner.id)).toBe('MEMBER');
    expect(await roleOf(teamId, other.id)).toBe('OWNER');
  });

  it('answers 404 for someone who is not a member, 404 to another team, 422 for an unknown role', async () => {
    expectDetail(await call('PATCH', `/v1/teams/${teamId}/users/${world.teamB.member.id}`, world.admin.token, { role: 'ADMIN' }), 404);
    expectDetail(await call('PATCH', `/v1/teams/${world.teamA.id}/users/${world.teamA.member.id}`, world.teamB.owner.token, { role: 'ADMIN' }), 404);
    expect422(await call('PATCH', `/v1/teams/${teamId}/users/${owner.id}`, world.admin.token, { role: 'KING' }), ['body', 'role'], 'enum');
    expect(await roleOf(world.teamA.id, world.teamA.member.id)).toBe('MEMBER');
  });

  it('never leaves a team without an owner when two owners demote each other at once', async () => {
    const team = await createTeam(t.app, world.admin, world.adminTeamId, 'race');
    const second = await createUser(t.app, team.owner.token, team.id, 'second');
    await call('PATCH', `/v1/teams/${team.id}/users/${second.id}`, team.owner.token, { role: 'OWNER' });
    const [a, b] = await Promise.all([
      call('PATCH', `/v1/teams/${team.id}/users/${second.id}`, team.owner.token, { role: 'MEMBER' }),
      call('PATCH', `/v1/teams/${team.id}/users/${team.owner.id}`, second.token, { role: 'MEMBER' }),
    ]);
    // One wins; the other finds itself the last owner (409) or, when its credential was read
    // after the first change, no longer an owner (403).
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const owners = ((await call('GET', `/v1/teams/${team.id}/users`, world.admin.token)).json() as Array<{ role: string }>).filter((u) => u.role === 'OWNER');
    expect(owners).toHaveLength(1);
  });
});

describe('DELETE /v1/teams/{team_id}/users/{user_id}', () => {
  it('removes a member, who then no longer sees the team', async () => {
    const team = await createTeam(t.app, world.admin, world.adminTeamId, 'leaving');
    const res = await call('DELETE', `/v1/teams/${team.id}/users/${team.member.id}`, team.owner.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectDetail(await call('GET', `/v1/teams/${team.id}`, team.member.token), 404);
    expect(teamIds(await call('GET', '/v1/teams/', team.member.token))).not.toContain(team.id);
    expect(await roleOf(team.id, team.member.id)).toBeUndefined();
    expectDetail(await call('DELETE', `/v1/teams/${team.id}/users/${team.member.id}`, team.owner.token), 404);
    // The person's account stays: they still log in.
    expect(typeof (await login(t.app, team.member.email, team.member.password))).toBe('string');
  });

  it('lets only an owner remove an owner, never the last one; 403 to a member, 404 to another team', async () => {
    const team = await createTeam(t.app, world.admin, world.adminTeamId, 'keeping');
    const admin = await createUser(t.app, team.owner.token, team.id, 'team-admin');
    await call('PATCH', `/v1/teams/${team.id}/users/${admin.id}`, team.owner.token, { role: 'ADMIN' });
    expectDetail(await call('DELETE', `/v1/teams/${team.id}/users/${team.owner.id}`, admin.token), 403);
    expectDetail(await call('DELETE', `/v1/teams/${team.id}/users/${team.owner.id}`, world.admin.token), 409);
    expectDetail(await call('DELETE', `/v1/teams/${team.id}/users/${admin.id}`, team.member.token), 403);
    expectDetail(await call('DELETE', `/v1/teams/${team.id}/users/${team.member.id}`, world.teamB.owner.token), 404);
    expect((await call('DELETE', `/v1/teams/${team.id}/users/${team.member.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/v1/teams/${team.id}/users/${admin.id}`, world.admin.token)).statusCode).toBe(204);
    expect(await roleOf(team.id, team.owner.id)).toBe('OWNER');
  });
});

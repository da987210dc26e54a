import type { FastifyInstance } from 'fastify';
import { AGENT_IMPORT_ROUTE_CASES } from '../route-cases/agent-import.js';
import { AGENT_ROUTE_CASES } from '../route-cases/agents.js';
import { DASHBOARD_ROUTE_CASES } from '../route-cases/dashboard.js';
import { DEMOGRAPHIC_ROUTE_CASES } from '../route-cases/demographics.js';
import { DOME_ROUTE_CASES } from '../route-cases/dome.js';
import { EVALUATION_ROUTE_CASES } from '../route-cases/evaluations.js';
import { GATEWAY_ROUTE_CASES } from '../route-cases/gateway.js';
import { IDENTITY_ROUTE_CASES } from '../route-cases/identity.js';
import { PERSONA_ROUTE_CASES } from '../route-cases/personas.js';
import { POLICY_ROUTE_CASES } from '../route-cases/policies.js';
import { REDTEAM_ROUTE_CASES } from '../route-cases/redteam.js';
import { TEAM_ADMIN_ROUTE_CASES } from '../route-cases/team-admin.js';
import { TELEMETRY_ROUTE_CASES } from '../route-cases/telemetry.js';
import type { Actor, World } from './factories.js';

export type Caller =
  | 'anonymous'
  | 'malformed'
  | 'expired'
  | 'revokedSession'
  | 'revokedKey'
  | 'keyWithoutPermission'
  | 'otherTeam'
  | 'member'
  | 'superAdmin';

export interface Ctx {
  app: FastifyInstance;
  world: World;
  /** The person behind the caller's credential (a fresh one on routes with `freshActors`). */
  actor?: Actor | undefined;
  createAgent(body?: Record<string, unknown>): Promise<{ id: string }>;
  createUser(label: string): Promise<Actor>;
  uniqueEmail(label?: string): string;
}

/**
 * One route of the isolation matrix. `member` is a MEMBER of team A, which owns the
 * resources `prepare` makes; `otherTeam` a MEMBER of team B. Statuses not given follow
 * CONTRACT.md: 401 for the bad credentials, 403 for a key without `needs`, 404 for the other team,
 * the member's status for a super admin.
 */
export interface RouteCase {
  method: string;
  url: string;
  /** The permission the route checks (null: none beyond being authenticated). */
  needs: string | null;
  public?: boolean;
  /** Errors not in the contract's `{"detail"}` shape but in the caller's protocol (the gateway). */
  errorShape?: 'openai' | 'jsonrpc';
  /** The route changes the caller's own session or password: use a fresh person per cell. */
  freshActors?: boolean;
  expect: Partial<Record<Caller, number>> & { member: number };
  /** `body` is sent as JSON unless `headers` give another content type (then as it is: a multipart Buffer). */
  prepare(ctx: Ctx, caller: Caller): Promise<{ url: string; body?: unknown; headers?: Record<string, string> }>;
}

/**
 * Every route of the matrix, one file per feature in test/route-cases/ (a new feature adds its
 * file and one line here; test/isolation.test.ts fails for a route that has no case).
 */
export const ROUTES: RouteCase[] = [
  ...IDENTITY_ROUTE_CASES,
  ...AGENT_ROUTE_CASES,
  ...POLICY_ROUTE_CASES,
  ...PERSONA_ROUTE_CASES,
  ...DEMOGRAPHIC_ROUTE_CASES,
  ...AGENT_IMPORT_ROUTE_CASES,
  ...DASHBOARD_ROUTE_CASES,
  ...TEAM_ADMIN_ROUTE_CASES,
  ...DOME_ROUTE_CASES,
  ...EVALUATION_ROUTE_CASES,
  ...REDTEAM_ROUTE_CASES,
  ...GATEWAY_ROUTE_CASES,
  ...TELEMETRY_ROUTE_CASES,
];

// Seeds the benchmark dataset straight into a SQLite file: the real schema (the service's own
// migrations, from dist/), then rows in the real column formats, written with better-sqlite3 in
// large transactions. Run by bench/run.mjs; also usable alone: node bench/seed.mjs <file.db>.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { v7 as uuidv7 } from 'uuid';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The shape of the dataset; SEED_VERSION changes whenever it (or the schema) changes. */
export const DATASET = {
  teams: 100,
  rules: 1_000_000,
  agents: 100_000,
  /**
   * The caller's team (team 0) is the big tenant: a rule list is "the rules of the caller's
   * team", so an offset of 900,000 exists only if one team holds more than 900,000 rules.
   * It holds 91% of the rules and of the agents; the 99 other teams share the rest.
   */
  bigTeamShare: 0.91,
  rulesPerPolicy: 10_000,
  smallTeamPolicies: 1,
};
export const SEED_VERSION = 'v1';

const RULE_TYPES = ['permission', 'prohibition', 'obligation', 'recommendation'];
const RULE_STATUSES = ['draft', 'approved', 'rejected', 'modified'];
const CATEGORIES = ['privacy', 'ethics', 'security', 'compliance', 'operational', 'brand', 'custom'];
const ACTIONS = ['block', 'redact', 'warn', 'log', 'escalate'];
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'];
const ASSIGNEES = ['agent', 'user', 'operator', 'system'];
const AGENT_STATUSES = ['active', 'active', 'active', 'draft', 'under_review', 'deprecated', 'archived'];
const STAGES = ['registered', 'tested', 'hardened', 'trusted', 'optimized', 'adapted'];

/** Deterministic pseudo-random numbers (mulberry32): the same dataset on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A time-ordered UUID v7 for a given millisecond (ids sort like created_at, as the service's do). */
const idAt = (ms) => uuidv7({ msecs: ms });

/** Splits `total` items among the teams: team 0 gets `share`, the others the rest evenly. */
function perTeam(total, teams, share) {
  const big = Math.round(total * share);
  const rest = total - big;
  const counts = [big];
  for (let t = 1; t < teams; t++) counts.push(Math.floor(rest / (teams - 1)) + (t - 1 < rest % (teams - 1) ? 1 : 0));
  return counts;
}

export async function seed(file, { adminEmail, adminPasswordHash, log = console.log } = {}) {
  const started = Date.now();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  fs.mkdirSync(path.dirname(file), { recursive: true });

  // The schema: the service's own migrations (dist/ is built by npm run build).
  const { migrateToLatest } = await import(path.join(ROOT, 'dist/db/migrations/index.js'));
  const raw = new SqliteDatabase(file);
  const kysely = new Kysely({ dialect: new SqliteDialect({ database: raw }) });
  await migrateToLatest(kysely, 'sqlite');

  // Bulk load: no journal, no fsync (a crash here just means seeding again); the service
  // opens the file in WAL mode with synchronous=FULL as always.
  raw.pragma('journal_mode = OFF');
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -1000000');
  raw.pragma('foreign_keys = OFF');

  const random = rng(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const now = Math.floor(Date.now() / 1000);
  const start = now - 365 * 86_400; // everything was created over the last year
  const span = now - 3_600 - start;

  const insert = (table, columns) =>
    raw.prepare(`insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);

  // ---------------------------------------------------------------- identity
  const adminId = idAt(start * 1000);
  raw.prepare(
    `insert into users (id, email, password_hash, is_active, is_verified, is_super_admin, password_change_required, created_at, updated_at)
     values (?, ?, ?, 1, 1, 1, 0, ?, ?)`,
  ).run(adminId, adminEmail, adminPasswordHash, start, start);
  const teamIds = [];
  const insertTeam = insert('teams', ['id', 'name', 'description', 'created_by', 'created_at', 'updated_at']);
  const insertMember = insert('memberships', ['id', 'team_id', 'user_id', 'role', 'created_at', 'updated_at']);
  raw.transaction(() => {
    for (let t = 0; t < DATASET.teams; t++) {
      const id = idAt(start * 1000 + t);
      teamIds.push(id);
      insertTeam.run(id, t === 0 ? 'Bench team' : `Team ${t}`, null, adminId, start, start);
    }
    // The admin's first (primary) membership is team 0: the caller's team of every request.
    insertMember.run(idAt(start * 1000), teamIds[0], adminId, 'OWNER', start, start);
  })();

  // ---------------------------------------------------------------- policies and rules
  const insertPolicy = insert('policies', [
    'id',
    'team_id',
    'name',
    'description',
    'category',
    'status',
    'source_text',
    'tags',
    'created_by',
    'created_at',
    'updated_at',
  ]);
  const insertRule = insert('policy_rules', [
    'id', 'policy_id', 'team_id', 'rule_id', 'rule_type', 'action', 'target', 'assignee', 'constraints', 'constraint_logic',
    'consequence', 'natural_language', 'provenance', 'category', 'tags', 'status', 'reviewed_by', 'reviewed_at', 'review_notes',
    'created_at', 'updated_at',
  ]);
  const ruleCounts = perTeam(DATASET.rules, DATASET.teams, DATASET.bigTeamShare);
  // Every rule gets its own creation instant, in order, so that creation order is also insertion order.
  let ruleSeq = 0;
  const ruleTime = (i) => start + Math.floor((i * span) / DATASET.rules);
  let policies = 0;
  const BATCH = 50_000;
  let pending = [];
  const flush = raw.transaction((rows) => {
    for (const r of rows) insertRule.run(r);
  });
  for (let t = 0; t < DATASET.teams; t++) {
    const count = ruleCounts[t];
    const nPolicies = t === 0 ? Math.ceil(count / DATASET.rulesPerPolicy) : DATASET.smallTeamPolicies;
    for (let p = 0; p < nPolicies; p++) {
      const inPolicy = Math.floor(count / nPolicies) + (p < count % nPolicies ? 1 : 0);
      const policyAt = ruleTime(ruleSeq);
      const policyId = idAt(policyAt * 1000 + (ruleSeq % 1000));
      const category = CATEGORIES[p % CATEGORIES.length];
      insertPolicy.run(policyId, teamIds[t], `Policy ${t}-${p}`, 'Benchmark policy', category, 'active', null, '["bench"]', adminId, policyAt, policyAt);
      policies++;
      for (let r = 0; r < inPolicy; r++) {
        const at = ruleTime(ruleSeq);
        const status = pick(RULE_STATUSES);
        const reviewed = status === 'approved' || status === 'rejected';
        const ruleCategory = pick(CATEGORIES);
        pending.push([
          idAt(at * 1000 + (ruleSeq % 1000)),
          policyId,
          teamIds[t],
          `R-${p}-${r}`,
          pick(RULE_TYPES),
          'use',
          'customer_data',
          pick(ASSIGNEES),
          JSON.stringify([{ condition_type: 'data', field: 'data.classification', operator: 'in', value: ['pii', 'phi'] }]),
          'all',
          JSON.stringify({ action: pick(ACTIONS), severity: pick(SEVERITIES), message: 'Customer data must not leave the approved region.' }),
          `The agent must not send customer personal data to services outside the approved region (rule ${r} of policy ${p}).`,
          JSON.stringify({
            extracted_by: 'llm',
            model_used: 'gpt-4o',
            confidence_score: 0.9,
            source_location: { section: '4.2', paragraph: 3, char_start: 1200, char_end: 1290, source_text: 'Personal data stays in the approved region.' },
          }),
          ruleCategory,
          '["data-residency","gdpr"]',
          status,
          reviewed ? adminId : null,
          reviewed ? at + 60 : null,
          null,
          at,
          reviewed ? at + 60 : at,
        ]);
        ruleSeq++;
        if (pending.length >= BATCH) {
          flush(pending);
          pending = [];
        }
      }
    }
  }
  flush(pending);
  pending = [];
  log(`  seeded ${ruleSeq.toLocaleString('en')} rules in ${policies} policies (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // ---------------------------------------------------------------- agents and evaluations
  const insertAgent = insert('agents', [
    'id', 'team_id', 'created_by', 'agent_name', 'model_name', 'agent_url', 'hub', 'api_key_enc', 'api_key_hint', 'agent_system_prompt',
    'rate_limit_requests_per_minute', 'status', 'access_level', 'agent_params', 'mcp_config', 'delegated_agents', 'white_box_config',
    'agent_metadata', 'purpose', 'protocol', 'test_score', 'last_tested_by', 'evaluated_harnesses', 'last_evaluated_at', 'protection_status',
    'trust_stage', 'trusted_at', 'ttt_days', 'dome_config_id', 'dome_manually_configured', 'import_metadata', 'capabilities', 'skills',
    'created_at', 'updated_at',
  ]);
  const insertEvent = insert('agent_lifecycle_events', ['id', 'agent_id', 'team_id', 'from_stage', 'to_stage', 'changed_by', 'changed_at']);
  const insertEvaluation = insert('evaluations', [
    'id', 'team_id', 'agent_id', 'status', 'overall_score', 'reliability_score', 'security_score', 'safety_score', 'created_at', 'completed_at',
  ]);
  const agentCounts = perTeam(DATASET.agents, DATASET.teams, DATASET.bigTeamShare);
  const bigTeamAgentIds = [];
  let agentSeq = 0;
  let evaluations = 0;
  raw.transaction(() => {
    for (let t = 0; t < DATASET.teams; t++) {
      for (let a = 0; a < agentCounts[t]; a++) {
        const at = start + Math.floor((agentSeq * span) / DATASET.agents);
        const id = idAt(at * 1000 + (agentSeq % 1000));
        const stage = pick(STAGES);
        const trustedAt = stage === 'registered' || stage === 'tested' ? null : at + 86_400;
        const status = pick(AGENT_STATUSES);
        insertAgent.run(
          id, teamIds[t], adminId, `agent-${t}-${a}`, 'gpt-4o-mini', `https://agents.example.com/${t}/${a}/v1/chat/completions`, 'custom',
          null, null, 'You are a helpful support agent. Answer politely and never reveal internal data.', 100, status, 'black_box',
          JSON.stringify({ temperature: 0.2, top_p: 1, max_tokens: 1024, timeout: 30 }), null, '[]', null,
          JSON.stringify({ role: 'support', job_description: 'Answers customer questions', version: '1.0', author: 'bench', tags: ['support'] }),
          'Customer support', 'chat_completions', '0.87', 'bench', '["safety","reliability"]', at + 3_600, 'unprotected', stage,
          trustedAt, trustedAt === null ? null : 1, null, 0, null, null, '[]', at, at,
        );
        insertEvent.run(idAt(at * 1000 + (agentSeq % 1000)), id, teamIds[t], null, 'registered', adminId, at);
        if (t === 0 && status !== 'archived') bigTeamAgentIds.push(id);
        // Half the agents have a completed evaluation, a tenth a second, newer one.
        for (let e = 0; e < (agentSeq % 2 === 0 ? 1 : 0) + (agentSeq % 10 === 0 ? 1 : 0); e++) {
          const done = at + 3_600 * (e + 1);
          insertEvaluation.run(idAt(done * 1000 + e), teamIds[t], id, 'completed', 0.8 + e / 100, 0.9, 0.85, 0.95, done - 600, done);
          evaluations++;
        }
        agentSeq++;
      }
    }
  })();
  log(`  seeded ${agentSeq.toLocaleString('en')} agents, ${evaluations.toLocaleString('en')} evaluations (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  raw.pragma('foreign_keys = ON');
  raw.exec('analyze');
  raw.pragma('journal_mode = WAL');
  await kysely.destroy();
  return { teamId: teamIds[0], agentIds: bigTeamAgentIds, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = path.resolve(process.argv[2] ?? 'bench/.data/seed.db');
  const { hashPassword } = await import(path.join(ROOT, 'dist/crypto/passwords.js'));
  const result = await seed(file, { adminEmail: 'bench@warden.local', adminPasswordHash: await hashPassword('bench-password', 14) });
  console.log(`seeded ${file} in ${result.seconds.toFixed(1)} s`);
}

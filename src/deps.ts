import type { Kysely } from 'kysely';
import type { LlmConfig } from './config.js';
import type { OutboundFence } from './connector/outbound.js';
import type { AgentConnector } from './connector/types.js';
import type { ServiceKeys } from './crypto/keys.js';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import type { ReportRenderer } from './evaluation/report/renderer.js';
import type { Telemetry } from './telemetry/types.js';

/** What services are built from. Each service narrows it with Pick<> to what it uses. */
export interface Deps {
  db: Kysely<DB>;
  dialect: Dialect;
  keys: ServiceKeys;
  /** Epoch seconds; injected so that time-dependent rules can be tested without waiting. */
  now: () => number;
  passwordHashCost: number;
  tokenTtlSeconds: number;
  dataDir: string;
  /** Chat endpoint for rule extraction; undefined when none is configured. */
  llm?: LlmConfig | undefined;
  /** Calls agents by their protocol, fenced, rate-limited, retried (src/connector/, docs/connector.md). */
  connector: AgentConnector;
  /**
   * Which addresses Warden may call for a user (WARDEN_OUTBOUND_*): the connector's fence, also
   * used by agent import's card discovery. Every outbound call to a user-given URL goes through it.
   */
  outboundFence: OutboundFence;
  /** Renders evaluation reports: in a worker thread in the service, so that a large report does not block requests. */
  reportRenderer: ReportRenderer;
  /**
   * The database's read version (Database.readVersion), for values kept until the next commit
   * (with `tables`, the next commit that may have changed those tables); undefined on PostgreSQL.
   */
  readVersion?: ((tables?: readonly string[]) => string) | undefined;
  /** Where counters, latencies, spans and logs go (src/telemetry/types.ts); noTelemetry unless the runtime wires the recorder. */
  telemetry: Telemetry;
}

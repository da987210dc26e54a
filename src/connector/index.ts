/** The agent connector's public surface (docs/connector.md). */
export * from './types.js';
export { createAgentConnector, CONNECTOR_DEFAULTS, type AgentConnectorHandle, type AgentConnectorOptions } from './connector.js';
export { createInProcessRateLimiter, processRateLimiter, realSleep, type InProcessRateLimiter, type Sleep } from './rate-limiter.js';
export { createRedisRateLimiter, type RedisRateLimiter } from './redis-rate-limiter.js';
export { sseData } from './sse.js';
export {
  createOutboundFence,
  OutboundRefusal,
  OutboundRulesError,
  parseOutboundRules,
  type HostResolver,
  type OutboundFence,
  type OutboundRule,
  type OutboundRules,
} from './outbound.js';
export { fencedLookup } from './http.js';
export { agentTarget, urlTarget, type AgentRecordForCall } from './target.js';
export { redactSecret } from './redact.js';
export { keyOrigin, sameKeyOrigin } from './key-origin.js';

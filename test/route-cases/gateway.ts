import type { RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of the gateway (test/helpers/route-table.ts). The agents made here
 * have no URL: a call that passes every check answers 502 without reaching anything.
 */
const gatewayRoute = (method: string, suffix: string, member: number, protocol: string, body?: unknown): RouteCase => ({
  method,
  errorShape: suffix === '/chat/completions' ? 'openai' : 'jsonrpc',
  url: `/v1/gateway/:agent_id${suffix}`,
  needs: 'gateway:invoke',
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/gateway/${(await ctx.createAgent({ protocol })).id}${suffix}`, body }),
});

export const GATEWAY_ROUTE_CASES: RouteCase[] = [
  gatewayRoute('POST', '/chat/completions', 502, 'chat_completions', { messages: [{ role: 'user', content: 'hello' }] }),
  gatewayRoute('POST', '/a2a', 502, 'a2a', {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: { message: { kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'hello' }], messageId: 'm-1' } },
  }),
  gatewayRoute('GET', '/.well-known/agent-card.json', 200, 'a2a'),
];

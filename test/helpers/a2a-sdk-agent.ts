import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { scriptedAnswer } from './gateway-agents.js';

/**
 * An A2A agent built on the official SDK (`@a2a-js/sdk` 1.3, A2A 1.0), served on loopback in the
 * SDK's own multi-transport layout: the card at `/.well-known/agent-card.json`, JSON-RPC at
 * `/a2a/jsonrpc` (the v0.3 compatibility layer off, as the SDK ships it). Each answer is a task
 * whose artifact holds the scripted answer (test/helpers/gateway-agents.ts).
 */

export interface SdkAgent {
  /** The base URL a person would type. */
  base: string;
  /** The JSON-RPC endpoint the card names. */
  endpoint: string;
  /** Every JSON-RPC request received: its method and A2A-Version header. */
  requests: Array<{ method: string; version: string | undefined; authorization: string | undefined }>;
  close(): Promise<void>;
}

const textPart = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

function promptOf(message: Message): string {
  const part = message.parts.find((p) => p.content?.$case === 'text');
  return part?.content?.$case === 'text' ? part.content.value : '';
}

class ScriptedExecutor implements AgentExecutor {
  cancelTask = async () => undefined;

  async execute(context: Parameters<AgentExecutor['execute']>[0], bus: Parameters<AgentExecutor['execute']>[1]): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    if (!context.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        }),
      );
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'answer',
          description: '',
          parts: [textPart(scriptedAnswer(promptOf(userMessage), undefined))],
          metadata: undefined,
          extensions: [],
        },
        lastChunk: true,
        append: false,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: new Date().toISOString(), message: undefined },
        metadata: undefined,
      }),
    );
    bus.finished();
  }
}

/** `legacy`: the SDK's v0.3 compatibility layer on (the card declares a 0.3 interface too). */
export async function startSdkAgent(options: { name?: string; legacy?: boolean } = {}): Promise<SdkAgent> {
  const name = options.name ?? 'SDK Agent';
  const app = express();
  const requests: SdkAgent['requests'] = [];
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoint = `${base}/a2a/jsonrpc`;
  const card: AgentCard = {
    name,
    description: 'An agent built on the A2A SDK',
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      ...(options.legacy === true ? [{ url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' }] : []),
    ],
    provider: { organization: 'Tests', url: 'https://example.com' },
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    // Empty lists, as the SDK's card builders leave them: "the card's defaults".
    skills: [
      { id: 'echo', name: 'Echo', description: 'Answers', tags: ['echo'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ScriptedExecutor());
  app.use('/a2a/jsonrpc', express.json(), (request, _response, next) => {
    const body = request.body as { method?: unknown } | undefined;
    const version = request.headers['a2a-version'];
    requests.push({
      method: typeof body?.method === 'string' ? body.method : '',
      version: typeof version === 'string' ? version : undefined,
      authorization: request.headers.authorization,
    });
    next();
  });
  const legacyCompat = { enabled: options.legacy === true };
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  return {
    base,
    endpoint,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

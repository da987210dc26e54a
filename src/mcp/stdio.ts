import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { WardenApi } from '../cli/api.js';
import { buildMcpServer } from './tools.js';

/** `warden mcp`: the tools over standard input and output, calling the Warden at WARDEN_URL. */
export async function serveStdio(api: WardenApi): Promise<void> {
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const server = buildMcpServer(api, version);
  await server.connect(new StdioServerTransport());
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback chat-completions agent that answers every prompt with `length` control characters
 * (U+0001): 40,000 of them are 240 KB once JSON-escaped (`\u0001`), the answer that made one
 * result page hundreds of megabytes before stored texts were bounded by their answered size.
 */
export async function startControlCharacterAgent(length = 40_000): Promise<{ chatUrl: string; requests(): number; close(): Promise<void> }> {
  const body = JSON.stringify({
    id: 'chatcmpl-control',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '\u0001'.repeat(length) } }],
  });
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    chatUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

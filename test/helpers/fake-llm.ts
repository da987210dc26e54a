import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmConfig } from '../../src/config.js';

/**
 * An OpenAI-compatible chat endpoint on localhost that answers every request with the same
 * message (by default: no rules), for tests that need rule extraction to run but do not look
 * at what the model says. test/rule-extraction.test.ts has the scripted one.
 */
export async function startFakeLlm(content = '{"rules": []}'): Promise<{ llm: LlmConfig; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          model: 'fake',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    llm: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'fake', apiKey: 'fake-llm-key' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

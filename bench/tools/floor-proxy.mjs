// The floor of bench/gateway.mjs: the least a Node.js gateway can do per call, run as its own
// process like the service. A bare `node:http` server that reads the caller's JSON body,
// parses it and sends it with undici (the client Warden's connector uses, one keep-alive pool)
// to AGENT_URL, then answers the agent's JSON as it came. No auth, guard, limit, telemetry or
// framework: the gateway's overhead minus this one's is what Warden itself costs per call, on the
// same machine in the same run. Prints "ready <port>" once listening on 127.0.0.1.
import http from 'node:http';
import { Agent, request } from 'undici';

const upstream = `${process.env.AGENT_URL}/chat/completions`;
const dispatcher = new Agent({ keepAliveTimeout: 60_000 });

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const answer = await request(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body, dispatcher });
      const text = await answer.body.text();
      res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`ready ${server.address().port}`));

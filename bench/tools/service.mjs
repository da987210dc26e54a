// What the benches that start the built service share: its `npm start` node flags, a free
// loopback port and a log line stamped with the seconds since the bench began.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The node flags of package.json's `start` script, so that the service runs (and its RSS is) the deployed one's. */
export function startFlags(root) {
  const start = String(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts?.start ?? '');
  const match = /node((?:\s+--\S+)*)\s+dist\/main\.js/.exec(start);
  return (match?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

export const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** `log(message)`: the message after the seconds since this call. */
export function elapsedLog() {
  const began = Date.now();
  return (message) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

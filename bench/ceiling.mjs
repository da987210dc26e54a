// The ceiling: a bare node:http server that answers every request with the same bytes the
// service answered for the rule list: the same status, the same header fields and values
// (all but Date, Connection and Keep-Alive, which node:http writes itself as it does for the
// service, and Content-Length, set from the body) and the same body. Whatever the service does
// beyond this (routing, auth, the query, serialisation) is the gap to it.
//
// GET /body-only answers the same body with its Content-Type alone: the ceiling as it was
// measured until 2026-11-24, kept as a reference row (bench/README.md).
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.argv[2]);
const contentType = process.argv[3] ?? 'application/json; charset=utf-8';
/** [name, value] pairs as the service sent them (a JSON file), or none. */
const recorded = process.argv[4] ? JSON.parse(fs.readFileSync(process.argv[4], 'utf8')) : [];
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const sameHeaders = Object.fromEntries(recorded.filter(([name]) => !WRITTEN_BY_NODE.has(name.toLowerCase())));
const bodyOnlyHeaders = { 'content-type': contentType };

const server = http.createServer((request, response) => {
  request.resume();
  // A new object per answer, as a server that builds its headers per request does.
  const headers = request.url === '/body-only' || recorded.length === 0 ? { ...bodyOnlyHeaders } : { ...sameHeaders };
  headers['content-length'] = body.length;
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => console.log(`CEILING_PORT ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

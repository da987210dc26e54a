// The ceiling: a bare node:http server that answers every request with the same bytes the
// service answered for the rule list (same status, content type and body). Whatever the
// service does beyond this (routing, auth, the query, serialisation) is the gap to it.
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.argv[2]);
const contentType = process.argv[3] ?? 'application/json; charset=utf-8';
const server = http.createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => console.log(`CEILING_PORT ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

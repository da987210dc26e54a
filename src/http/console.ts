import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Paths the console never answers: the API's own 404 stays JSON there (CONTRACT.md, Wave 3 / Console). */
const API_PREFIXES = ['/v1/', '/v1', '/docs', '/openapi.json', '/healthz', '/mcp'];

/** Hashed build output (Vite's `assets/`): the name changes with the content, so it may be kept forever. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the other unhashed files: asked again each time, so a new build is picked up at once. */
export const REVALIDATE = 'no-cache';

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
}

/** A browser navigating (Accept: text/html), not a script or a client asking for JSON. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

/**
 * The web console (docs/console.md): the files `vite build` wrote to `dir`, served at `/` with
 * their pre-compressed siblings, and index.html for any other GET that a browser navigates to
 * (the console's client-side routes). The API's routes are registered as exact paths and win
 * over the fallback, which is a wildcard; under /v1, /docs and /openapi.json an unknown path
 * keeps the API's JSON 404. Returns false when there is no build to serve.
 */
export async function registerConsole(app: FastifyInstance, dir: string): Promise<boolean> {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return false;
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const relative = path.relative(dir, filePath).split(path.sep);
        res.setHeader('cache-control', relative[0] === 'assets' ? IMMUTABLE : REVALIDATE);
      },
    });
    scope.get('/*', { schema: { hide: true } }, (request, reply) => {
      if (isApiPath(request.url) || !wantsHtml(request)) return reply.callNotFound();
      return reply.sendFile('index.html');
    });
  });
  return true;
}

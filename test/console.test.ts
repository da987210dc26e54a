import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';

/**
 * How the service serves the web console (src/http/console.ts, docs/console.md): against a small
 * build of its own (an index.html and a hashed script), so the rules are checked without Vite.
 * The console itself runs in a browser in test/console-e2e.test.ts.
 */
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = 'console.log("the console");'.repeat(50);

let dir: string;
let t: TestApp;
let bare: TestApp;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-console-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(SCRIPT));
  t = await buildTestApp({ app: { consoleDir: dir } });
  bare = await buildTestApp({ app: { consoleDir: path.join(dir, 'missing') } });
});

afterAll(async () => {
  await t?.close();
  await bare?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the console is served at /', () => {
  it('answers index.html at /, not cached, under the API CSP that allows no inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/script-src-attr 'none'/);
    expect(csp).toMatch(/img-src 'self' data:/);
  });

  it('serves hashed assets as immutable, compressed when the browser accepts it', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toMatch(/javascript/);
    const gzip = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("answers index.html for the console's own routes when a browser navigates to them", async () => {
    for (const url of ['/agents', '/agents/5b0c5a4e-0000-4000-8000-000000000000', '/policies/x?tab=rules', '/sign-in']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it("keeps the API's JSON 404 under /v1, and for clients that do not ask for HTML", async () => {
    for (const url of ['/v1/no-such-thing', '/v1/agent-configurations/x/nothing', '/docs/nothing-here.js', '/openapi.json/x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail: `No route for GET ${url}` });
    }
    const json = await t.app.inject({ method: 'GET', url: '/agents', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ detail: 'No route for GET /agents' });
    const post = await t.app.inject({ method: 'POST', url: '/agents', headers: html, payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it("lets the API's routes win: /v1, /openapi.json, /docs and /healthz answer as before", async () => {
    const me = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: html });
    expect(me.statusCode).toBe(401);
    expect(me.headers['content-type']).toMatch(/application\/json/);
    const openapi = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: html });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json().openapi).toBe('3.1.0');
    const docs = await t.app.inject({ method: 'GET', url: '/docs/', headers: html });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toMatch(/swagger/i);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });

  it('serves nothing at / when there is no build, and the API still works', async () => {
    const res = await bare.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'No route for GET /' });
    expect((await bare.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

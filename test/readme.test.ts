import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Issue 2: the README starts and tests the service with exactly two commands; the rest lives in docs/. */
describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

  it('has exactly two command blocks: npm install && npm start, npm install && npm test', () => {
    const blocks = [...readme.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => (m[1] ?? '').trim());
    expect(blocks).toEqual(['npm install && npm start', 'npm install && npm test']);
  });

  it('links the walkthrough, which exists', () => {
    expect(readme).toContain('(docs/getting-started.md)');
    expect(readFileSync(new URL('../docs/getting-started.md', import.meta.url), 'utf8')).toContain('/v1/auth/jwt/login');
  });
});

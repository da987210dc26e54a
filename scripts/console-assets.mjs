// After `vite build` (npm run build): writes gzip and brotli copies of the console's text files
// beside them (src/http/console.ts serves them to browsers that accept them), prints the
// compressed JavaScript the first page loads, and fails the build past the budget of issue 30.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_BYTES = 250 * 1024;
const kb = (bytes) => (bytes / 1024).toFixed(1);
const dir = path.resolve(import.meta.dirname, '..', 'dist', 'console');
const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');

for (const name of fs.readdirSync(dir, { recursive: true })) {
  const file = path.join(dir, String(name));
  if (!/\.(js|css|html|svg|json)$/.test(file) || !fs.statSync(file).isFile()) continue;
  const content = fs.readFileSync(file);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

// The scripts index.html loads (the entry and what it preloads): the first page's JavaScript.
const scripts = [...index.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1]);
let gzipTotal = 0;
let brotliTotal = 0;
for (const script of scripts) {
  const file = path.join(dir, script);
  const gzip = fs.statSync(`${file}.gz`).size;
  const brotli = fs.statSync(`${file}.br`).size;
  gzipTotal += gzip;
  brotliTotal += brotli;
  console.log(`console: ${script} ${kb(fs.statSync(file).size)} KB, gzip ${kb(gzip)} KB, brotli ${kb(brotli)} KB`);
}
console.log(`console: first page JavaScript ${kb(gzipTotal)} KB gzip, ${kb(brotliTotal)} KB brotli (budget ${BUDGET_BYTES / 1024} KB compressed)`);
if (scripts.length === 0) throw new Error('console: index.html loads no script: the build is broken');
if (gzipTotal > BUDGET_BYTES) {
  console.error(`console: the first page loads ${(gzipTotal / 1024).toFixed(1)} KB of gzip JavaScript, over the ${BUDGET_BYTES / 1024} KB budget`);
  process.exit(1);
}

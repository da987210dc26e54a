#!/usr/bin/env node
// `warden` (the package's bin): runs the compiled CLI. In a fresh clone nothing is compiled
// yet: the first call builds once (`npm run build`, as `npm start` does), later calls start at once.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('warden: first run in this checkout: compiling (npm run build), once\n');
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (built.status !== 0 || !existsSync(cli)) {
    process.stderr.write('warden: the build failed: run `npm install` then `npm run build` in the checkout\n');
    process.exit(2);
  }
}
await import(pathToFileURL(cli).href);

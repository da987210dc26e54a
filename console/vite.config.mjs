// The console's build (docs/console.md): `npm run build` runs it after tsc; the output goes to
// dist/console, which the service serves at `/` (src/http/console.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'info',
  publicDir: false,
  // Preact's automatic JSX runtime, without a plugin.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline script or style: the console runs under the API's CSP (script-src 'self').
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
});

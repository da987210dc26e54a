// Renders the report fixture (test/helpers/evaluation-report-fixture.ts) to
// /tmp/warden-sample-report.html and .pdf, for a person to look at the reports. A script, not
// a test. It compiles the renderers and the fixture with the project's TypeScript into
// node_modules/.cache (so the compiled files resolve the project's dependencies), then runs them.
//
//   node scripts/render-sample-report.mjs [--out-dir DIR] [--failures N]
//     --failures N   repeat the fixture's failure list N times (to see page breaks)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(ROOT, 'node_modules', '.cache', 'warden-sample-report');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args[i + 1];
};
const outDir = path.resolve(option('--out-dir', '/tmp'));
const failureCopies = Number(option('--failures', '1'));

fs.rmSync(BUILD, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// prettier-ignore
execFileSync(process.execPath, [
  tsc, '--outDir', BUILD, '--rootDir', ROOT, '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022',
  '--types', 'node', '--strict', '--skipLibCheck', '--esModuleInterop', '--verbatimModuleSyntax',
  path.join(ROOT, 'src/evaluation/report/index.ts'), path.join(ROOT, 'test/helpers/evaluation-report-fixture.ts'),
], { cwd: ROOT, stdio: 'inherit' });
// node_modules ends a package scope: say the compiled files are ES modules.
fs.writeFileSync(path.join(BUILD, 'package.json'), '{ "type": "module" }\n');

const load = (file) => import(pathToFileURL(path.join(BUILD, file)).href);
const { renderEvaluationHtml, renderEvaluationPdf } = await load('src/evaluation/report/index.js');
const { buildReportModel } = await load('test/helpers/evaluation-report-fixture.js');

const model = buildReportModel({ failureCopies });
const html = path.join(outDir, 'warden-sample-report.html');
const pdf = path.join(outDir, 'warden-sample-report.pdf');
fs.writeFileSync(html, renderEvaluationHtml(model));
fs.writeFileSync(pdf, await renderEvaluationPdf(model));
console.log(`wrote ${html}\nwrote ${pdf}`);

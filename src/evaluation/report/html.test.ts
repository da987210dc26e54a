import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildReportModel, fixedScore } from '../../../test/helpers/evaluation-report-fixture.js';
import type { EvaluationReportModel } from '../types.js';
import { renderEvaluationHtml } from './html.js';

const SCRIPT = '<script>alert(document.cookie)</script>';
const ATTR = `"><img src=x onerror=alert(1)>`;
const SINGLE = `' onmouseover='alert(2)' x='`;
const SVG = '<svg onload=alert(3)><foreignObject><iframe src="javascript:alert(4)"></iframe></foreignObject></svg>';
const CLOSE_STYLE = '</style><style>body{background:url(https://evil.example/x)}</style>';
const HOSTILE = [SCRIPT, ATTR, SINGLE, SVG, CLOSE_STYLE].join(' ');

/** A model whose every string an attacker could choose holds markup. */
function hostileModel(): EvaluationReportModel {
  const model = buildReportModel();
  return {
    ...model,
    evaluationId: `eval ${HOSTILE}`,
    agent: { id: HOSTILE, name: `\u202Eevil Agent ${HOSTILE}`, modelName: HOSTILE, url: `javascript:alert(5)//${HOSTILE}` },
    teamName: HOSTILE,
    status: HOSTILE,
    harnesses: model.harnesses.map((h) => ({
      ...h,
      name: `${h.name} ${HOSTILE}`,
      pillar: h.pillar,
      scenarios: h.scenarios.map((s) => ({
        ...s,
        name: `${s.name} ${HOSTILE}`,
        probes: s.probes.map((p) => ({ ...p, name: `${p.name} ${SCRIPT}`, description: HOSTILE })),
      })),
    })),
    failures: [{ harness: HOSTILE, scenario: HOSTILE, probe: HOSTILE, prompt: HOSTILE, response: HOSTILE, reason: HOSTILE }],
    requestParams: { [HOSTILE]: HOSTILE, nested: { [SCRIPT]: [ATTR] } },
  };
}

const TAGS = new Set(
  ('html head meta title style body main header footer section article figure p h1 h2 h3 h4 bdi span strong em code pre ul ol li caption ' +
    'dl dt dd div table thead tbody tr th td svg desc defs pattern rect line path text tspan g').split(' '),
);
const ATTRIBUTES = new Set(
  ('lang charset http-equiv content name class id role scope dir viewBox xmlns width height x y x1 x2 y1 y2 dx d fill ' +
    'patternUnits patternTransform text-anchor dominant-baseline aria-labelledby aria-label aria-hidden focusable data-chart').split(' '),
);
const TAG = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[a-zA-Z][\w:-]*="[^"<>]*")*)\s*\/?>/y;

/**
 * Reads the page as a strict tokenizer would: every `<` outside the stylesheet must open a
 * well-formed tag whose name and attribute names are on the lists above. A string that broke out
 * of its escaping (a new tag, a new attribute) fails here.
 */
function markupProblems(html: string): string[] {
  const problems: string[] = [];
  const body = html.replace(/<style>[\s\S]*?<\/style>/, '<style></style>').replace(/^<!DOCTYPE html>/, '');
  for (let i = body.indexOf('<'); i !== -1; i = body.indexOf('<', i + 1)) {
    TAG.lastIndex = i;
    const match = TAG.exec(body);
    if (match === null) {
      problems.push(`unparsed markup at ${i}: ${body.slice(i, i + 60)}`);
      continue;
    }
    const [, , name = '', attrs = ''] = match;
    if (!TAGS.has(name)) problems.push(`tag <${name}>`);
    for (const attr of attrs.matchAll(/([a-zA-Z][\w:-]*)="/g)) if (!ATTRIBUTES.has(attr[1] ?? '')) problems.push(`attribute ${attr[1]} on <${name}>`);
  }
  return problems;
}

describe('renderEvaluationHtml: safety', () => {
  const html = renderEvaluationHtml(hostileModel());

  it('escapes every model string: no tag or attribute comes from the model', () => {
    expect(markupProblems(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<foreignObject/i);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toContain('&lt;script&gt;alert(document.cookie)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&#39; onmouseover=&#39;alert(2)&#39; x=&#39;');
  });

  it('the check itself catches a string that is not escaped', () => {
    expect(markupProblems(`<p>${ATTR}</p>`)).not.toEqual([]);
    expect(markupProblems(`<p class="${SINGLE.replace(/'/g, '"')}">x</p>`)).not.toEqual([]);
  });

  it('loads nothing: a CSP that allows only its own stylesheet (by hash), no link, script, image or remote URL', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    // No src/href attribute can exist (markupProblems allows neither); the stylesheet and the
    // attribute values name nothing remote: the one URL is the SVG namespace, which is not fetched.
    expect(style).not.toMatch(/@import|@font-face|url\(/i);
    const values = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((tag) => [...tag[0].matchAll(/="([^"]*)"/g)].map((m) => m[1] ?? ''));
    expect(values.filter((v) => /url\(/.test(v) && !/^url\(#hatch-[a-z]+\)$/.test(v))).toEqual([]);
    expect(new Set(values.filter((v) => /:\/\//.test(v)))).toEqual(new Set(['http://www.w3.org/2000/svg']));
  });

  it('drops bidi overrides and isolates names, so nothing reorders the page or a name', () => {
    expect(html).toMatch(/<h1><bdi>evil Agent [^<]*<\/bdi><\/h1>/);
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it('never prints a credential given among the request parameters', () => {
    const model = { ...buildReportModel(), requestParams: { agent_api_key: 'sk-live-do-not-print', sample_size: 5 } };
    const page = renderEvaluationHtml(model);
    expect(page).not.toContain('sk-live-do-not-print');
    expect(page).toContain('[withheld]');
  });
});

describe('renderEvaluationHtml: content', () => {
  const model = buildReportModel();
  const html = renderEvaluationHtml(model);

  it('titles the page with the agent, its model and URL', () => {
    expect(html).toContain('<title>Evaluation report: Northwind Support Assistant</title>');
    expect(html).toContain('<h1><bdi>Northwind Support Assistant</bdi></h1>');
    expect(html).toContain('gpt-4o-mini');
    expect(html).toContain('https://agents.example.com/northwind/v1/chat');
  });

  it('draws both charts as inline SVG with a title, a description and one bar per harness', () => {
    const svgs = html.match(/<svg class="chart"[\s\S]*?<\/svg>/g) ?? [];
    expect(svgs).toHaveLength(2);
    for (const svg of svgs) expect(svg).toMatch(/<title id="[\w-]+">[^<]+<\/title><desc id="[\w-]+">[^<]+<\/desc>/);
    expect(html.match(/data-chart="harness"/g)).toHaveLength(model.harnesses.length);
    const pillarSvg = svgs[0] ?? '';
    expect(pillarSvg.match(/<rect class="bar /g)).toHaveLength(3);
    expect(pillarSvg).toContain('pass at 70\u00a0%');
    for (const harness of model.harnesses) expect(svgs[1]).toContain(`>${harness.name}<`);
  });

  it('lists every probe under its harness and scenario with score, n and interval', () => {
    const probes = model.harnesses.flatMap((h) => h.scenarios.flatMap((s) => s.probes));
    expect(html.match(/<tr class="row-probe">/g)).toHaveLength(probes.length);
    expect(html.match(/<tr class="row-harness">/g)).toHaveLength(model.harnesses.length);
    expect(html).toMatch(/<tr class="row-probe"><th scope="row"><bdi>Direct override<\/bdi>.*?<td class="num">77\.5\u00a0%<\/td><td class="num">40<\/td>/);
  });

  it('shows failures, n and errors, parameters and UTC dates', () => {
    expect(html).toContain(`Failure examples (${model.failures.length})`);
    expect(html).toContain('ORCHID-7731');
    expect(html).toMatch(/more characters not shown/);
    expect(html).toContain('9 (agent unreachable; not scored)');
    expect(html).toContain('2026-11-25T09:46:40Z');
    expect(html).toContain('<th scope="row">sample_size</th><td><code>30</code></td>');
  });
});

describe('renderEvaluationHtml: verdict', () => {
  const verdict = (html: string) => /<p class="verdict-label">([^<]+)<\/p>/.exec(html)?.[1];

  it('is FAIL at 0.6999 (shown as 69.9 %) and PASS at 0.70', () => {
    const below = renderEvaluationHtml({ ...buildReportModel(), overall: fixedScore(0.6999) });
    expect(verdict(below)).toBe('FAIL');
    expect(below).toContain('class="verdict verdict-fail"');
    expect(below).toContain('69.9\u00a0%');
    expect(below).not.toContain('70.0\u00a0%</p>');
    const at = renderEvaluationHtml({ ...buildReportModel(), overall: fixedScore(0.7) });
    expect(verdict(at)).toBe('PASS');
  });

  it('says NOT MEASURED when neither the overall score nor any pillar was measured', () => {
    const model: EvaluationReportModel = {
      ...buildReportModel(),
      overall: null,
      pillars: { reliability: null, security: null, safety: null },
    };
    const html = renderEvaluationHtml(model);
    expect(verdict(html)).toBe('NOT MEASURED');
    const pillarSvg = /<svg class="chart"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(pillarSvg.match(/>not measured</g)).toHaveLength(3);
    expect(pillarSvg).not.toContain('class="bar ');
  });

  it('says INCOMPLETE, naming the pillars not measured, for a completed run without every pillar, whatever its score', () => {
    const model = buildReportModel();
    const pillars = { ...model.pillars, safety: null, reliability: null };
    const html = renderEvaluationHtml({ ...model, pillars, overall: fixedScore(0.95) });
    expect(verdict(html)).toBe('INCOMPLETE');
    expect(html).toContain('class="verdict verdict-incomplete"');
    expect(html).toContain('reliability and safety were not measured');
    expect(markupProblems(html)).toEqual([]);
  });

  it('bounds runaway strings (a 100 000-character name and prompt)', () => {
    const model = buildReportModel();
    const normal = renderEvaluationHtml(model).length;
    const runaway = renderEvaluationHtml({
      ...model,
      agent: { ...model.agent, name: 'N'.repeat(100_000), url: 'u'.repeat(100_000) },
      failures: [{ harness: 'security', scenario: 's', probe: 'p', prompt: 'P'.repeat(100_000), response: 'R'.repeat(100_000), reason: 'why' }],
    });
    expect(runaway.length).toBeLessThan(normal + 10_000);
    expect(runaway).toContain('more characters not shown');
  });

  it('draws no bar for a harness that scored no prompt, and says so', () => {
    const model = buildReportModel({ harnesses: ['security', 'safety'] });
    const unmeasured = { ...model.harnesses[1]!, name: 'Silent', score: { score: 0, n: 0, low: 0, high: 1 }, errors: 12 };
    const html = renderEvaluationHtml({ ...model, harnesses: [model.harnesses[0]!, unmeasured] });
    expect(html.match(/data-chart="harness"/g)).toHaveLength(1);
    expect(html).toContain('not measured (no prompt scored)');
    expect(html).toMatch(/<bdi>Silent<\/bdi><span class="tag">Safety · 12 errors<\/span><\/th><td class="num">—<\/td><td class="num">0<\/td>/);
  });

  it('renders a run with no harness at all', () => {
    const model: EvaluationReportModel = {
      ...buildReportModel(),
      status: 'failed',
      completedAt: null,
      overall: null,
      pillars: { reliability: null, security: null, safety: null },
      harnesses: [],
      failures: [],
      requestParams: {},
    };
    const html = renderEvaluationHtml(model);
    // A run that did not complete is no verdict (docs/evaluations.md, "The PASS rule").
    expect(verdict(html)).toBe('INCOMPLETE');
    expect(html).toContain('No harness was run');
    expect(html).not.toContain('data-chart="harness"');
    expect(html).toContain('No failed prompt was recorded.');
    expect(html).toContain('This evaluation failed before it completed');
    expect(html).toContain('not measured: reliability, security, safety');
    expect(markupProblems(html)).toEqual([]);
  });
});

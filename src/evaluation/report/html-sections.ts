/**
 * HTML pieces both reports (evaluation and campaign) use: the top risks, what to do next, the
 * OWASP / ATLAS chips and coverage tables, and the facts a recipient checks the report by.
 */
import { atlasLabel, owaspLabel, type CoverageRow, type FrameworkMapping } from './frameworks.js';
import type { Risk } from './risks.js';
import { SEVERITY_LABEL } from './risks.js';
import { escapeHtml as esc, formatCount, truncate, type Excerpt } from './text.js';

export function mappingChips(mapping: FrameworkMapping): string {
  const items = [...mapping.owasp.map(owaspLabel), ...mapping.atlas.map(atlasLabel)];
  if (items.length === 0) return '';
  return `<ul class="chips" aria-label="OWASP and ATLAS">${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
}

export function risksHtml(risks: readonly Risk[], emptyText: string): string {
  if (risks.length === 0) return `<p class="empty">${esc(emptyText)}</p>`;
  const items = risks.map((risk) => {
    const example =
      risk.example === null
        ? ''
        : `<p class="risk-example">Example <code>${esc(truncate(risk.example.id, 120))}</code>: ` +
          `<bdi>\u201c${esc(truncate(risk.example.prompt, 160))}\u201d</bdi> → ` +
          `<bdi>\u201c${esc(truncate(risk.example.response, 160))}\u201d</bdi></p>`;
    return (
      `<li class="risk risk-${risk.severity}"><p><span class="severity">${SEVERITY_LABEL[risk.severity]}</span>` +
      `<strong><bdi>${esc(risk.title)}</bdi></strong> · ${esc(risk.detail)}</p>` +
      `${mappingChips(risk.mapping)}${example}</li>`
    );
  });
  return `<ol class="risks">${items.join('')}</ol>`;
}

export function nextStepsHtml(steps: readonly string[]): string {
  return `<ol class="next-steps">${steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>`;
}

/** The first page's sections after the verdict: top risks, then what to do next. */
export function firstPageHtml(risks: readonly Risk[], steps: readonly string[], emptyText: string): string {
  return (
    `<section class="top-risks"><h2>Top risks</h2>${risksHtml(risks, emptyText)}</section>` +
    `<section><h2>What to do next</h2>${nextStepsHtml(steps)}</section>`
  );
}

function coverageTable(title: string, rows: readonly CoverageRow[], unit: string): string {
  const body = rows
    .map(
      (r) =>
        `<tr><th scope="row"><code>${esc(r.id)}</code> ${esc(r.name)}</th><td class="num">${formatCount(r.tested)}</td>` +
        `<td class="num">${r.tested === 0 ? '—' : formatCount(r.failing)}</td></tr>`,
    )
    .join('');
  return (
    `<table class="coverage"><caption class="sr">${esc(title)}</caption><thead><tr><th scope="col">${esc(title)}</th>` +
    `<th scope="col" class="num">${esc(unit)} tested</th><th scope="col" class="num">with failures</th></tr></thead><tbody>${body}</tbody></table>`
  );
}

export function coverageHtml(cov: { owasp: CoverageRow[]; atlas: CoverageRow[] }, unit: string): string {
  return (
    '<section class="coverage-section"><h2>OWASP Top 10 for LLM Applications (2025) and MITRE ATLAS</h2>' +
    `<p class="lead">Each ${esc(unit.toLowerCase().replace(/s$/, ''))} tested maps to the OWASP items and ATLAS techniques its attack belongs to. ` +
    'An OWASP item with nothing tested was not covered by this run.</p>' +
    coverageTable('OWASP Top 10 for LLM (2025)', cov.owasp, unit) +
    coverageTable('MITRE ATLAS technique', cov.atlas, unit) +
    '</section>'
  );
}

export interface ProvenanceRow {
  label: string;
  value: string;
  /** Shown as code (ids, hashes). */
  code?: boolean;
}

export function provenanceHtml(rows: readonly ProvenanceRow[], lead: string): string {
  const body = rows
    .map((r) => `<tr><th scope="row">${esc(r.label)}</th><td>${r.code === true ? `<code class="hash">${esc(r.value)}</code>` : esc(r.value)}</td></tr>`)
    .join('');
  return (
    `<section class="params-section"><h2>How this report was made</h2><p class="lead">${esc(lead)}</p>` +
    `<table class="params"><tbody>${body}</tbody></table></section>`
  );
}

/** A cut text as a preformatted block, with how much was left out. */
export function excerptHtml(value: Excerpt): string {
  const more = value.omitted > 0 ? `<span class="omitted">[${formatCount(value.omitted)} more characters not shown]</span>` : '';
  return `<pre dir="auto">${esc(value.text)}</pre>${more}`;
}

/** The facts beside the verdict, as the inside of a definition list. */
export function factsHtml(facts: ReadonlyArray<{ label: string; value: string }>): string {
  return facts.map((f) => `<div><dt>${esc(f.label)}</dt><dd><bdi>${esc(f.value)}</bdi></dd></div>`).join('');
}

/** "How to read this report": its sentences as a list (both HTML reports). */
export function readingHtml(items: readonly string[]): string {
  return `<section class="reading"><h2>How to read this report</h2><ul>${items.map((item) => `<li>${esc(item)}</li>`).join('')}</ul></section>`;
}

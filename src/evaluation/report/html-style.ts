/**
 * The HTML report's stylesheet. Local fonts only (the page must work offline); the palette keeps
 * "meets" and "below" apart for colour-blind readers (blue / orange, and hatching, and words).
 * The page's CSP names this text by its SHA-256, so it is a constant.
 */
export const REPORT_CSS = `
:root {
  --ink: #1c2430; --muted: #5b6675; --line: #d9dee5; --soft: #f4f6f9;
  --meets: #2f6f9f; --below: #c2570c; --pass: #1b6b3a; --pass-bg: #e6f3ea; --fail: #a3261b; --fail-bg: #fbe9e7;
  --none: #5b6675; --none-bg: #eef0f3;
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #fff; color: var(--ink);
  font: 15px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
main { max-width: 960px; margin: 0 auto; padding: 32px 36px 48px; }
h1 { font-size: 30px; line-height: 1.2; margin: 4px 0 6px; overflow-wrap: anywhere; }
h2 { font-size: 19px; margin: 36px 0 10px; padding-bottom: 6px; border-bottom: 2px solid var(--ink); }
h3 { font-size: 15px; margin: 0 0 10px; overflow-wrap: anywhere; }
h4 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 4px; }
p { margin: 0 0 8px; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 13px; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.report-header { border-bottom: 1px solid var(--line); padding-bottom: 14px; }
.eyebrow { text-transform: uppercase; letter-spacing: .12em; font-size: 12px; font-weight: 600; color: var(--muted); margin: 0; }
.subtitle { color: var(--muted); margin: 0; display: flex; flex-wrap: wrap; gap: 4px 28px; }
.subtitle .url { overflow-wrap: anywhere; }
.summary { display: grid; grid-template-columns: minmax(240px, 300px) 1fr; gap: 24px; margin-top: 22px; align-items: start; }
.verdict { border-radius: 10px; padding: 16px 18px; border: 2px solid; }
.verdict-pass { color: var(--pass); background: var(--pass-bg); border-color: var(--pass); }
.verdict-fail { color: var(--fail); background: var(--fail-bg); border-color: var(--fail); }
.verdict-not-measured, .verdict-incomplete { color: var(--none); background: var(--none-bg); border-color: var(--none); }
.verdict-label { font-size: 22px; font-weight: 800; letter-spacing: .14em; margin: 0; }
.overall-score { font-size: 44px; font-weight: 700; line-height: 1.1; margin: 4px 0; color: var(--ink); font-variant-numeric: tabular-nums; }
.overall-detail { font-size: 13px; color: var(--ink); margin-bottom: 8px; }
.overall-rule { font-size: 13px; color: var(--muted); margin: 0; }
.facts { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px 24px; margin: 0; font-size: 14px; }
.facts div { border-bottom: 1px solid var(--line); padding-bottom: 4px; min-width: 0; }
.facts dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
.note { margin-top: 18px; padding: 10px 14px; border-left: 4px solid var(--below); background: #fdf1e7; }
.lead { color: var(--muted); font-size: 14px; }
.empty { color: var(--muted); font-style: italic; }
figure { margin: 8px 0 0; }
.chart { width: 100%; height: auto; display: block; font-family: inherit; }
.chart text { font-size: 13px; fill: var(--ink); }
.chart .tick, .chart .muted { fill: var(--muted); font-size: 12px; }
.chart .muted { font-style: italic; }
.chart .label { font-weight: 600; }
.chart .value { font-weight: 700; font-variant-numeric: tabular-nums; }
.chart .interval { font-weight: 400; fill: var(--muted); font-size: 12px; }
.chart .threshold-label { font-size: 12px; font-weight: 600; }
.grid { stroke: var(--line); stroke-width: 1; }
.axis { stroke: var(--ink); stroke-width: 1.2; }
.track { fill: var(--soft); }
.bar-meets { fill: var(--meets); }
.fill-below, .meter .bar-below { fill: var(--below); }
.hatch-line { stroke: #fff; stroke-width: 2.6; stroke-opacity: .5; }
.bar-below { stroke: var(--below); stroke-width: 1; }
.whisker { stroke: var(--ink); stroke-width: 1.6; fill: none; }
.whisker-halo { stroke: #fff; stroke-width: 3.4; stroke-opacity: .7; fill: none; }
.threshold { stroke: var(--ink); stroke-width: 1.3; stroke-dasharray: 5 4; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 5px 8px; vertical-align: top; }
thead th { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); border-bottom: 2px solid var(--ink); }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.results tbody tr { border-bottom: 1px solid var(--line); break-inside: avoid; }
.results th[scope] { font-weight: 400; overflow-wrap: anywhere; }
.row-harness { background: var(--soft); }
.row-harness th[scope], .row-harness td { font-weight: 700; padding-top: 9px; padding-bottom: 9px; }
.row-scenario th[scope], .row-scenario td { font-weight: 600; }
.row-scenario th[scope] { padding-left: 22px; }
.row-probe th[scope] { padding-left: 40px; }
.tag { display: inline-block; margin-left: 10px; font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
.desc { display: block; font-size: 12px; color: var(--muted); }
.meter-cell { width: 104px; padding-top: 9px; }
.meter { display: block; }
td.muted { color: var(--muted); font-style: italic; font-size: 12px; white-space: nowrap; }
.meter .track { fill: var(--line); }
.meter .whisker { stroke-width: 1.4; }
.meter .threshold { stroke-dasharray: 2 2; stroke-width: 1; }
.failure { border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 0 0 14px; break-inside: avoid; }
.failure .index { display: inline-block; min-width: 26px; margin-right: 8px; padding: 0 6px; border-radius: 4px; background: var(--ink);
  color: #fff; font-size: 12px; text-align: center; }
.failure .sep { color: var(--muted); }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
.exchange > div { min-width: 0; }
pre { margin: 0; padding: 8px 10px; background: var(--soft); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere;
  unicode-bidi: isolate; max-height: none; }
.omitted { display: block; font-size: 12px; color: var(--muted); margin-top: 2px; }
.reason { margin: 10px 0 0; font-size: 14px; }
.params th { width: 30%; font-weight: 600; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.params td { border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.reading ul { padding-left: 20px; color: var(--ink); font-size: 14px; }
.reading li { margin-bottom: 4px; }
.risks { list-style: none; padding: 0; margin: 0; }
.risk { border: 1px solid var(--line); border-left: 5px solid var(--below); border-radius: 6px; padding: 10px 14px; margin: 0 0 10px; break-inside: avoid; }
.risk-critical { border-left-color: var(--fail); }
.risk-low { border-left-color: var(--meets); }
.severity { display: inline-block; font-size: 11px; font-weight: 800; letter-spacing: .08em; padding: 1px 6px; border-radius: 4px; margin-right: 8px;
  background: var(--soft); }
.risk-critical .severity { background: var(--fail-bg); color: var(--fail); }
.risk-example { font-size: 13px; color: var(--muted); margin: 4px 0 0; overflow-wrap: anywhere; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; margin: 4px 0 0; padding: 0; list-style: none; }
.chips li { font-size: 11px; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; color: var(--muted); }
.meta { font-size: 12px; color: var(--muted); margin: -4px 0 8px; overflow-wrap: anywhere; }
.next-steps { padding-left: 20px; }
.next-steps li { margin-bottom: 6px; }
.coverage td, .coverage th { border-bottom: 1px solid var(--line); }
.up { color: var(--pass); }
.down { color: var(--fail); }
.hash { font-size: 12px; overflow-wrap: anywhere; }
footer { margin-top: 40px; padding-top: 10px; border-top: 1px solid var(--line); font-size: 12px; color: var(--muted); }
@media (max-width: 720px) {
  main { padding: 20px 16px; }
  .summary, .exchange { grid-template-columns: 1fr; }
  .facts { grid-template-columns: 1fr; }
}
@page { size: A4; margin: 14mm 12mm 16mm; }
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; margin-top: 22px; }
  .summary, figure, .failure, tr { break-inside: avoid; }
  .figure-section { break-inside: avoid; }
  thead { display: table-header-group; }
  pre { font-size: 9pt; }
}
`.trim();

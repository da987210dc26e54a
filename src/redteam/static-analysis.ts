/**
 * White box: a static pass over the agent's source code (docs/redteam.md, "Access levels").
 * Three checks, reported as findings:
 * - hard-coded secrets (the guard catalogue's `detect-secrets`, injected);
 * - prompts built by string concatenation or interpolation from user input (prompt injection
 *   by construction);
 * - tools that reach a dangerous sink (shell, eval, network, files, SQL) with no allow-list.
 * Pattern-based (Python and JavaScript/TypeScript spellings): a lead for a person to check, not
 * a proof; each finding names the file and line. Secrets are never quoted.
 */
import type { DetectionResult } from '../guard/types.js';
import type { Severity } from './types.js';

export type StaticRule = 'hardcoded-secret' | 'prompt-concatenation' | 'unrestricted-tool';

export interface StaticFinding {
  rule: StaticRule;
  file: string;
  /** 1-based. */
  line: number;
  /** The line, trimmed and clipped; every secret on it is replaced by [secret] (no line is quoted when the secrets check could not run). */
  excerpt: string;
  detail: string;
  severity: Severity;
}

export interface StaticReport {
  findings: StaticFinding[];
  /** Checks that could not run (e.g. the secrets detector failed), with why. */
  notChecked: Array<{ rule: StaticRule; reason: string }>;
  files: number;
  lines: number;
}

/** The header agent import writes before each file when several were uploaded (src/modules/agent-import/source-code.ts). */
const FILE_HEADER = /^# ==== file: (.+) ====$/;
const MAX_PER_RULE = 20;
/** The most findings the white-box pass stores: its three rules, each reporting at most MAX_PER_RULE. */
export const MAX_STATIC_FINDINGS = 3 * MAX_PER_RULE;
const MAX_EXCERPT = 160;

export interface SourceFile {
  name: string;
  text: string;
}

/** The files of a stored source (one file named after the entry point when there is no header). */
export function splitSource(source: string, entryPoint: string | null): SourceFile[] {
  const files: SourceFile[] = [];
  let name = entryPoint ?? 'source';
  const lines: string[] = [];
  const close = () => files.push({ name, text: lines.splice(0).join('\n') });
  for (const line of source.split('\n')) {
    const header = FILE_HEADER.exec(line);
    if (header === null) {
      lines.push(line);
      continue;
    }
    close();
    name = header[1] as string;
  }
  close();
  return files.filter((f) => f.text.trim().length > 0);
}

const clip = (text: string) => {
  const trimmed = text.trim();
  return trimmed.length > MAX_EXCERPT ? `${trimmed.slice(0, MAX_EXCERPT - 1)}…` : trimmed;
};

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

// ------------------------------------------------------------------ secrets

interface Span {
  type: string;
  start: number;
  end: number;
}

/** A file's lines, and its secrets' spans: every excerpt of every rule is cut from a line with each secret on it masked. */
interface ReadFile extends SourceFile {
  lines: string[];
  /** Where each line starts in `text`. */
  starts: number[];
  /** null: the secrets detector could not run, so no line is quoted. */
  spans: Span[] | null;
}

function readFile(file: SourceFile, spans: Span[] | null): ReadFile {
  const lines = file.text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return { ...file, lines, starts, spans };
}

const NOT_QUOTED = '(line not quoted: the secrets check could not run on it)';

/** Line `line` (1-based), every secret on it (or crossing it) replaced by [secret], trimmed and clipped. */
function excerptOf(file: ReadFile, line: number): string {
  if (file.spans === null) return NOT_QUOTED;
  const text = file.lines[line - 1] ?? '';
  const from = file.starts[line - 1] ?? 0;
  const to = from + text.length;
  const cuts = file.spans.filter((s) => s.start < to && s.end > from).sort((a, b) => a.start - b.start);
  let out = '';
  let at = from;
  for (const span of cuts) {
    if (span.end <= at) continue;
    // Overlapping spans (two rules on one token) make one mark.
    if (span.start > at || out === '') out += `${text.slice(at - from, Math.max(span.start, at) - from)}[secret]`;
    at = Math.min(span.end, to);
  }
  return clip(out + text.slice(at - from));
}

async function secretSpans(file: SourceFile, detect: (text: string) => Promise<DetectionResult>): Promise<Span[]> {
  const result = await detect(file.text);
  if (result.label === 'error') throw new Error(String(result.details.error ?? 'the secrets detector failed'));
  return Array.isArray(result.details.secrets) ? (result.details.secrets as Span[]) : [];
}

function secrets(files: readonly ReadFile[]): StaticFinding[] {
  const out: StaticFinding[] = [];
  for (const file of files) {
    for (const span of file.spans ?? []) {
      const line = lineAt(file.text, span.start);
      const detail = `A hard-coded ${span.type} in the source`;
      out.push({ rule: 'hardcoded-secret', file: file.name, line, excerpt: excerptOf(file, line), detail, severity: 'critical' });
      if (out.length >= MAX_PER_RULE) return out;
    }
  }
  return out;
}

// ------------------------------------------------------------------ prompts from user input

const USER = String.raw`(?:user_?(?:input|message|query|text|prompt|request|content|question)|userInput|userMessage|userQuery|query|question|message|msg|` +
  String.raw`request\.(?:json|form|args|data|body|get_json)|req\.(?:body|query|params)|input\(\)|sys\.argv|event\[["']body["']\])`;
const INTERPOLATION = [
  new RegExp(String.raw`\bf["'][^"'\n]*\{[^}\n]*\b${USER}[^}\n]*\}`, 'i'),
  new RegExp(String.raw`\.format\([^)\n]*\b${USER}`, 'i'),
  new RegExp(String.raw`["'\x60]\s*\+\s*${USER}\b|\b${USER}\s*\+\s*["'\x60]`, 'i'),
  new RegExp(String.raw`["'][^"'\n]*%[sr][^"'\n]*["']\s*%\s*\(?\s*${USER}`, 'i'),
  new RegExp(String.raw`\x60[^\x60\n]*\$\{[^}\n]*\b${USER}[^}\n]*\}`, 'i'),
];
const PROMPT_CONTEXT =
  /\b(?:system_?prompt|systemPrompt|prompt|instructions?|system_?message|template)\b\s*(?:[:=]|\+=)|["']?role["']?\s*[:=]\s*["']system|SystemMessage\(|\bmessages\s*[:=]|\.(?:invoke|generate|complete|create|predict|run)\(/i;

function promptConcatenation(files: readonly ReadFile[]): StaticFinding[] {
  const out: StaticFinding[] = [];
  for (const file of files) {
    const { lines } = file;
    for (const [i, line] of lines.entries()) {
      if (!INTERPOLATION.some((pattern) => pattern.test(line))) continue;
      const context = lines.slice(Math.max(0, i - 2), i + 1).join('\n');
      if (!PROMPT_CONTEXT.test(context)) continue;
      out.push({
        rule: 'prompt-concatenation',
        file: file.name,
        line: i + 1,
        excerpt: excerptOf(file, i + 1),
        detail: 'A prompt is built by concatenating or interpolating user input: the input can rewrite the instructions (prompt injection)',
        severity: 'high',
      });
      if (out.length >= MAX_PER_RULE) return out;
    }
  }
  return out;
}

// ------------------------------------------------------------------ tools without an allow-list

const TOOL_DEF = /@(?:tool|function_tool|mcp\.tool|server\.tool)\b|\b(?:Structured|Dynamic)?Tool\(|\bdef\s+\w*tool\w*\s*\(|\btool\(\s*\{|["']type["']\s*:\s*["']function["']/i;
const SINKS: Array<[RegExp, string]> = [
  [/\bsubprocess\.\w+|\bos\.(?:system|popen)\b|shell\s*=\s*True|\bchild_process\b|\bexecSync\b|\bspawn\(/, 'runs shell commands'],
  [/(?<![\w.])(?:eval|exec)\(/, 'evaluates code'],
  [/\brequests\.(?:get|post|put|delete|request)\(|\burllib\.request\b|\bhttpx\.\w+\(|(?<![\w.])fetch\(|\baxios\b/, 'calls URLs'],
  [/(?<![\w.])open\(|\bfs\.(?:readFile|writeFile|unlink|rm)\w*|\bshutil\.rmtree\b|\bos\.remove\b/, 'reads or writes files'],
  [/\bcursor\.execute\(|\.query\(\s*[f`"']|\bexecute\(\s*f["']/, 'runs SQL'],
];
const ALLOW_LIST = /allow_?list|whitelist|ALLOWED_|allowed_(?:hosts|commands|paths|domains|tables|urls|tools|files)|permitted_|safe_(?:hosts|commands|paths)|\bin\s+ALLOW/i;
const TOOL_WINDOW = 40;

function unrestrictedTools(files: readonly ReadFile[]): StaticFinding[] {
  const out: StaticFinding[] = [];
  for (const file of files) {
    const { lines } = file;
    const starts = lines.flatMap((line, i) => (TOOL_DEF.test(line) ? [i] : []));
    for (const [k, start] of starts.entries()) {
      const end = Math.min(lines.length, starts[k + 1] ?? lines.length, start + TOOL_WINDOW);
      const body = lines.slice(start, end).join('\n');
      if (ALLOW_LIST.test(body)) continue;
      const sink = SINKS.find(([pattern]) => pattern.test(body));
      if (!sink) continue;
      const name = /def\s+(\w+)|name\s*[:=]\s*["']([\w-]+)["']/.exec(body);
      const tool = name?.[1] ?? name?.[2] ?? 'a tool';
      out.push({
        rule: 'unrestricted-tool',
        file: file.name,
        line: start + 1,
        excerpt: excerptOf(file, start + 1),
        detail: `The tool ${tool} ${sink[1]} with no allow-list: whoever steers the agent chooses the command, URL, path or query`,
        severity: 'high',
      });
      if (out.length >= MAX_PER_RULE) return out;
    }
  }
  return out;
}

/** Runs the three checks. `detectSecrets` is the catalogue's `detect-secrets` (censoring off). */
export async function analyseSource(
  source: string,
  entryPoint: string | null,
  detectSecrets: (text: string) => Promise<DetectionResult>,
): Promise<StaticReport> {
  const sources = splitSource(source, entryPoint);
  const notChecked: StaticReport['notChecked'] = [];
  let spans: Span[][] | null = null;
  try {
    spans = [];
    for (const file of sources) spans.push(await secretSpans(file, detectSecrets));
  } catch (error) {
    spans = null;
    notChecked.push({ rule: 'hardcoded-secret', reason: error instanceof Error ? error.message : 'the secrets detector failed' });
  }
  const files = sources.map((file, i) => readFile(file, spans === null ? null : (spans[i] as Span[])));
  return {
    findings: [...secrets(files), ...promptConcatenation(files), ...unrestrictedTools(files)],
    notChecked,
    files: files.length,
    lines: files.reduce((sum, f) => sum + f.lines.length, 0),
  };
}

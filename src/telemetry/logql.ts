/**
 * The subset of LogQL Warden answers (docs/telemetry.md, "LogQL"): a stream selector of label
 * matchers (`=`, `!=`, `=~`, `!~`) followed by line filters (`|=`, `!=`). Anything else
 * (parsers, label filters after `|`, `|~`, metric queries) is refused with a message naming it.
 */

export class QueryLanguageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryLanguageError';
  }
}

export type MatchOperator = '=' | '!=' | '=~' | '!~';

export interface LabelMatcher {
  label: string;
  op: MatchOperator;
  value: string;
}

export interface LineFilter {
  op: '|=' | '!=';
  text: string;
}

export interface LogQuery {
  matchers: LabelMatcher[];
  filters: LineFilter[];
}

/** Reads a double- or back-quoted string literal at `i`; answers its value and the index after it. */
export function readString(text: string, i: number): [string, number] {
  const quote = text[i];
  if (quote === '`') {
    const end = text.indexOf('`', i + 1);
    if (end < 0) throw new QueryLanguageError('unterminated string');
    return [text.slice(i + 1, end), end + 1];
  }
  if (quote !== '"') throw new QueryLanguageError(`expected a quoted string at position ${i + 1}`);
  let out = '';
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j]!;
    if (c === '\\') {
      const next = text[++j];
      out += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
    } else if (c === '"') return [out, j + 1];
    else out += c;
  }
  throw new QueryLanguageError('unterminated string');
}

const skip = (text: string, i: number) => {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
};

/** A regular expression as LogQL anchors it (the whole value must match). */
export function anchored(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`, 's');
  } catch {
    throw new QueryLanguageError(`invalid regular expression ${JSON.stringify(pattern)}`);
  }
}

export function parseLogQuery(text: string): LogQuery {
  const matchers: LabelMatcher[] = [];
  const filters: LineFilter[] = [];
  let i = skip(text, 0);
  if (text[i] !== '{') {
    throw new QueryLanguageError(
      'a LogQL query starts with a stream selector such as {service_name="warden"}; metric queries (rate, count_over_time, …) are not supported',
    );
  }
  i = skip(text, i + 1);
  while (text[i] !== '}') {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))?.[0];
    if (name === undefined) throw new QueryLanguageError(`expected a label name at position ${i + 1}`);
    i = skip(text, i + name.length);
    const op = (['=~', '!~', '!=', '='] as const).find((o) => text.startsWith(o, i));
    if (op === undefined) throw new QueryLanguageError(`expected =, !=, =~ or !~ after ${name}`);
    i = skip(text, i + op.length);
    const [value, next] = readString(text, i);
    if (op === '=~' || op === '!~') anchored(value);
    matchers.push({ label: name, op, value });
    i = skip(text, next);
    if (text[i] === ',') i = skip(text, i + 1);
    else if (text[i] !== '}') throw new QueryLanguageError(`expected , or } at position ${i + 1}`);
  }
  i = skip(text, i + 1);
  while (i < text.length) {
    if (text.startsWith('|=', i) || text.startsWith('!=', i)) {
      const op = text.slice(i, i + 2) as '|=' | '!=';
      const [value, next] = readString(text, skip(text, i + 2));
      filters.push({ op, text: value });
      i = skip(text, next);
      continue;
    }
    const rest = text.slice(i, i + 20);
    if (text.startsWith('|~', i) || text.startsWith('!~',
      i)) throw new QueryLanguageError(`regular-expression line filters (${text.slice(i, i + 2)}) are not supported: use |= or !=`);
    if (text[i] === '|') throw new QueryLanguageError(`pipeline stages other than line filters are not supported (at "${rest.trim()}")`);
    throw new QueryLanguageError(`unexpected "${rest.trim()}" after the stream selector`);
  }
  if (matchers.length === 0) throw new QueryLanguageError('the stream selector needs at least one label matcher');
  return { matchers, filters };
}

/** Whether a stream's labels and a line pass the query. */
export function logMatcher(query: LogQuery): { labels(labels: Readonly<Record<string, string>>): boolean; line(line: string): boolean } {
  const checks = query.matchers.map((m) => {
    const regex = m.op === '=~' || m.op === '!~' ? anchored(m.value) : undefined;
    return (labels: Readonly<Record<string, string>>) => {
      const value = labels[m.label] ?? '';
      switch (m.op) {
        case '=':
          return value === m.value;
        case '!=':
          return value !== m.value;
        case '=~':
          return regex!.test(value);
        case '!~':
          return !regex!.test(value);
      }
    };
  });
  return {
    labels: (labels) => checks.every((check) => check(labels)),
    line: (line) => query.filters.every((f) => (f.op === '|=' ? line.includes(f.text) : !line.includes(f.text))),
  };
}

const quote = (value: string) => JSON.stringify(value);

/** The LogQL the reference's filter parameters stand for (what the answer's `query` reports). */
export function buildLogQuery(labels: Readonly<Record<string, string | undefined>>, search: string | undefined): string {
  const matchers = Object.entries(labels)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `${name}=${quote(value)}`);
  const selector = matchers.length === 0 ? '{service_name=~".+"}' : `{${matchers.join(', ')}}`;
  return search === undefined || search === '' ? selector : `${selector} |= ${quote(search)}`;
}

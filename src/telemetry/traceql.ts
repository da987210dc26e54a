import { QueryLanguageError, readString } from './logql.js';
import type { AttributeValue } from './types.js';

/**
 * The subset of TraceQL Warden answers (docs/telemetry.md, "TraceQL"): one spanset filter
 * `{ … }` whose conditions are joined by `&&`, each one of
 * - a span attribute equality: `.key = value`, `span.key = value`, `.key != value`
 *   (value a quoted string, a number, `true` or `false`);
 * - `resource.service.name = "…"`, `name = "…"`, `status = ok|error|unset`, `kind = server|…`;
 * - a duration comparison: `duration > 100ms` (`=`, `!=`, `>`, `>=`, `<`, `<=`; ns, us, ms, s, m, h).
 * A trace matches when one of its spans meets every condition. `||`, regular expressions,
 * structural operators, pipelines and aggregates are refused, each with a message naming it.
 */

export type TraceCondition =
  | { field: 'attribute'; key: string; op: '=' | '!='; value: AttributeValue }
  | { field: 'service' | 'name' | 'status' | 'kind'; op: '=' | '!='; value: string }
  | { field: 'duration'; op: '=' | '!=' | '>' | '>=' | '<' | '<='; ns: bigint };

const UNITS: Record<string, bigint> = { ns: 1n, us: 1_000n, µs: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

const skip = (text: string, i: number) => {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
};

function readValue(text: string, i: number): [AttributeValue, number] {
  if (text[i] === '"' || text[i] === '`') return readString(text, i);
  const word = /^[^\s&|}]+/.exec(text.slice(i))?.[0];
  if (word === undefined) throw new QueryLanguageError(`expected a value at position ${i + 1}`);
  if (word === 'true' || word === 'false') return [word === 'true', i + word.length];
  if (/^-?\d+(\.\d+)?$/.test(word)) return [Number(word), i + word.length];
  return [word, i + word.length];
}

export function parseTraceQuery(text: string): TraceCondition[] {
  let i = skip(text, 0);
  if (text[i] !== '{') throw new QueryLanguageError('a TraceQL query is one spanset filter such as { .gen_ai.request.model = "gpt-4o" && duration > 1s }');
  i = skip(text, i + 1);
  const conditions: TraceCondition[] = [];
  while (text[i] !== '}') {
    if (i >= text.length) throw new QueryLanguageError('missing } at the end of the spanset filter');
    const ident = /^[A-Za-z_.][A-Za-z0-9_.:-]*/.exec(text.slice(i))?.[0];
    if (ident === undefined) throw new QueryLanguageError(`expected a field at position ${i + 1}`);
    i = skip(text, i + ident.length);
    const op = (['=~', '!~', '>=', '<=', '!=', '=', '>', '<'] as const).find((o) => text.startsWith(o, i));
    if (op === undefined) throw new QueryLanguageError(`expected an operator after ${ident}`);
    if (op === '=~' || op === '!~') throw new QueryLanguageError(`regular-expression matches (${op}) are not supported: use = or !=`);
    i = skip(text, i + op.length);
    const [value, next] = readValue(text, i);
    i = skip(text, next);
    conditions.push(condition(ident, op, value));
    if (text.startsWith('&&', i)) i = skip(text, i + 2);
    else if (text.startsWith('||', i)) throw new QueryLanguageError('|| is not supported: conditions are joined by &&');
    else if (text[i] !== '}') throw new QueryLanguageError(`unexpected "${text.slice(i, i + 20).trim()}" in the spanset filter`);
  }
  const rest = text.slice(i + 1).trim();
  if (rest !== '') {
    const what = rest.startsWith('|') ? 'pipelines and aggregates (| count(), | select(…))' : /^(>>|>|<<|<|~|&&|\|\|)/.test(rest) ? 'structural and spanset operators' : `"${rest.slice(0, 20)}"`;
    throw new QueryLanguageError(`${what} after the spanset filter are not supported`);
  }
  return conditions;
}

function condition(ident: string, op: '>=' | '<=' | '!=' | '=' | '>' | '<', value: AttributeValue): TraceCondition {
  const equality = (): '=' | '!=' => {
    if (op !== '=' && op !== '!=') throw new QueryLanguageError(`${ident} takes = or != only (comparisons are for duration)`);
    return op;
  };
  if (ident === 'duration') {
    const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)$/.exec(value) : null;
    if (match === null) throw new QueryLanguageError(`a duration is a number with a unit (ns, us, ms, s, m, h), such as 250ms; got ${JSON.stringify(value)}`);
    const [whole, fraction = ''] = match[1]!.split('.');
    const unit = UNITS[match[2]!]!;
    const scale = 10n ** BigInt(fraction.length);
    return { field: 'duration', op, ns: (BigInt(whole! + fraction) * unit) / scale };
  }
  if (ident === 'name' || ident === 'status' || ident === 'kind') return { field: ident, op: equality(), value: String(value) };
  if (ident === 'resource.service.name' || ident === '.service.name') return { field: 'service', op: equality(), value: String(value) };
  if (ident.startsWith('span.')) return { field: 'attribute', key: ident.slice(5), op: equality(), value };
  if (ident.startsWith('.') && ident.length > 1) return { field: 'attribute', key: ident.slice(1), op: equality(), value };
  if (ident.startsWith('resource.')) throw new QueryLanguageError(`resource attributes other than resource.service.name are not supported (${ident})`);
  throw new QueryLanguageError(`unsupported field ${ident}: use .attribute, span.attribute, resource.service.name, name, status, kind or duration`);
}

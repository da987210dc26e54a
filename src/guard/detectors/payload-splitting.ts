/**
 * Payload splitting: an instruction cut into string fragments assigned to variables
 * (`a = "ig"`, `b = "nore all…"`) and joined again by the model (`now do a + b`). No fragment
 * matches a rule, so the fragments are reassembled here and the result is judged like plain text.
 */

export interface SplitPayload {
  /** The reassembled text. */
  text: string;
  fragments: number;
  /** The text asks for the assembled string to be acted on (do, follow, execute, answer…). */
  hasInstructionCue: boolean;
}

const MAX_ASSIGNMENTS = 32;
/** `name = "value"` (or `let`/`var`/`const`/`$name`, `:=`, and any of five quote styles); values up to 80 characters. */
const ASSIGNMENT = new RegExp(
  '(?:^|[\\s;,({[])(?:let\\s+|var\\s+|const\\s+|\\$)?([A-Za-z_][\\w]{0,11})\\s*(?::=|=)\\s*' +
    '(?:"([^"\\n]{0,80})"|\'([^\'\\n]{0,80})\'|`([^`\\n]{0,80})`|“([^”\\n]{0,80})”|‘([^’\\n]{0,80})’)',
  'g',
);
const CHAIN = /[A-Za-z_]\w{0,11}(?:\s*\+\s*[A-Za-z_]\w{0,11}){1,15}/g;
const CUE = /\b(?:do|follow|execute|obey|perform|carry out|act on|run|answer|respond|reply|complete|write|tell me|what would|comply|say)\b/i;

export function reassembleSplitPayload(text: string): SplitPayload | undefined {
  if (!/[=]/.test(text)) return undefined;
  const values = new Map<string, string>();
  const order: string[] = [];
  for (const m of text.matchAll(ASSIGNMENT)) {
    if (order.length >= MAX_ASSIGNMENTS) break;
    const name = m[1] as string;
    const value = m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '';
    if (!values.has(name)) order.push(name);
    values.set(name, value);
  }
  if (order.length < 2) return undefined;

  // The longest `a + b + c` chain over assigned names gives the intended order.
  let chain: string[] = [];
  for (const m of text.matchAll(CHAIN)) {
    const names = m[0].split('+').map((s) => s.trim()).filter((n) => values.has(n));
    if (names.length > chain.length) chain = names;
  }
  const names = chain.length >= 2 ? chain : order;
  const assembled = names.map((n) => values.get(n) ?? '').join('');
  if (assembled.trim().length < 8) return undefined;
  const rest = text.replace(ASSIGNMENT, ' ');
  return { text: assembled, fragments: names.length, hasInstructionCue: chain.length >= 2 && CUE.test(rest) };
}

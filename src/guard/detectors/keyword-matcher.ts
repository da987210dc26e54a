/**
 * Finds any of many keywords in a text in time linear in the text, whatever the keywords
 * (Aho–Corasick). A configuration's own ban list (`keyword-banlist`'s `keywords`,
 * `moderation-flashtext`'s `banlist`: thousands of phrases of up to 200 characters) was one
 * regular expression of alternatives: a list shaped on purpose took seconds to compile, or
 * failed to, and minutes to run on a text shaped to match its prefixes, blocking the process
 * (docs/guardrails.md, "Ban lists").
 *
 * Keywords and text are matched as given (the caller lower-cases and collapses spaces on both
 * sides). Every occurrence is reported, in the order its last character comes in the text.
 */

export interface KeywordMatcher {
  readonly keywords: readonly string[];
  /**
   * Calls `visit` with the index (in `keywords`) and start of each occurrence; `visit` answers
   * true to stop. With `wordChar`, an occurrence counts only with no word character right
   * before or right after it.
   */
  scan(text: string, visit: (keyword: number, start: number) => boolean | void): void;
}

const ROOT = 0;

/**
 * The trie's transitions, state by state in one flat array (a state's children are
 * `unit[first[s]] .. unit[first[s + 1] - 1]`, sorted), so that a list of 256 KB of keywords
 * costs a few megabytes, not tens: a compiled configuration is kept in memory.
 */
interface Transitions {
  first: Int32Array;
  unit: Uint16Array;
  target: Int32Array;
}

function compact(trie: Array<Map<number, number>>): Transitions {
  const first = new Int32Array(trie.length + 1);
  let count = 0;
  trie.forEach((edges, state) => {
    first[state] = count;
    count += edges.size;
  });
  first[trie.length] = count;
  const unit = new Uint16Array(count);
  const target = new Int32Array(count);
  trie.forEach((edges, state) => {
    let at = first[state] as number;
    for (const [u, child] of [...edges].sort((a, b) => a[0] - b[0])) {
      unit[at] = u;
      target[at++] = child;
    }
  });
  return { first, unit, target };
}

/** The child of `state` by `u`, or -1. */
function child(t: Transitions, state: number, u: number): number {
  let low = t.first[state] as number;
  let high = (t.first[state + 1] as number) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = t.unit[mid] as number;
    if (at === u) return t.target[mid] as number;
    if (at < u) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

function isWordCharAt(text: string, index: number, wordChar: RegExp, cache: Map<number, boolean>): boolean {
  if (index < 0 || index >= text.length) return false;
  let cp = text.codePointAt(index) as number;
  // The second half of a pair: the character is the pair's.
  if (cp >= 0xdc00 && cp <= 0xdfff && index > 0) {
    const before = text.codePointAt(index - 1) as number;
    if (before > 0xffff) cp = before;
  }
  let known = cache.get(cp);
  if (known === undefined) {
    known = wordChar.test(String.fromCodePoint(cp));
    cache.set(cp, known);
  }
  return known;
}

/** `wordChar`: a one-character test such as /[\p{L}\p{N}_]/u, or null to match anywhere (substrings). */
export function createKeywordMatcher(input: readonly string[], wordChar: RegExp | null): KeywordMatcher {
  const keywords = [...new Set(input.filter((k) => k.length > 0))];
  const trie: Array<Map<number, number>> = [new Map()];
  /** The keyword ending at a state, or -1. */
  const ends: number[] = [-1];
  keywords.forEach((keyword, index) => {
    let state = ROOT;
    for (let i = 0; i < keyword.length; i++) {
      const u = keyword.charCodeAt(i);
      let next = (trie[state] as Map<number, number>).get(u);
      if (next === undefined) {
        next = trie.length;
        (trie[state] as Map<number, number>).set(u, next);
        trie.push(new Map());
        ends.push(-1);
      }
      state = next;
    }
    ends[state] = index;
  });
  const transitions = compact(trie);
  trie.length = 0;
  const output = Int32Array.from(ends);
  const fail = new Int32Array(output.length);
  /** The nearest state down the failure chain that ends a keyword, or -1. */
  const nextOutput = new Int32Array(output.length).fill(-1);

  const step = (state: number, u: number): number => {
    for (let s = state; ; s = fail[s] as number) {
      const next = child(transitions, s, u);
      if (next >= 0) return next;
      if (s === ROOT) return ROOT;
    }
  };
  // Failure links, breadth first.
  const queue = new Int32Array(output.length);
  let tail = 1;
  for (let head = 0; head < tail; head++) {
    const parent = queue[head] as number;
    for (let at = transitions.first[parent] as number; at < (transitions.first[parent + 1] as number); at++) {
      const next = transitions.target[at] as number;
      const link = parent === ROOT ? ROOT : step(fail[parent] as number, transitions.unit[at] as number);
      fail[next] = link;
      nextOutput[next] = (output[link] as number) >= 0 ? link : (nextOutput[link] as number);
      queue[tail++] = next;
    }
  }

  const lengths = keywords.map((k) => k.length);
  return {
    keywords,
    scan(text, visit) {
      if (keywords.length === 0) return;
      const cache = new Map<number, boolean>();
      let state = ROOT;
      for (let i = 0; i < text.length; i++) {
        state = step(state, text.charCodeAt(i));
        let found = (output[state] as number) >= 0 ? state : (nextOutput[state] as number);
        if (found < 0) continue;
        // Every keyword ending here shares the character after it: one check for them all.
        if (wordChar !== null && isWordCharAt(text, i + 1, wordChar, cache)) continue;
        for (; found >= 0; found = nextOutput[found] as number) {
          const keyword = output[found] as number;
          const start = i + 1 - (lengths[keyword] as number);
          if (wordChar !== null && isWordCharAt(text, start - 1, wordChar, cache)) continue;
          if (visit(keyword, start) === true) return;
        }
      }
    },
  };
}

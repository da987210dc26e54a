/**
 * Where a quoted passage sits in a policy document. Offsets are counted in Unicode code
 * points (as Python slices a str), so `[...doc].slice(char_start, char_end).join('')` is the
 * quote; a quote that is not in the document is never answered with offsets.
 */
export interface LocatedSource {
  section: string | null;
  /** 1-based number of the paragraph (blocks separated by blank lines) the quote starts in. */
  paragraph: number;
  char_start: number;
  char_end: number;
  /** The document's own text at those offsets (which may differ from the quote in whitespace). */
  source_text: string;
}

export interface SourceHint {
  source_text?: string | null | undefined;
  char_start?: number | null | undefined;
  char_end?: number | null | undefined;
}

const hasSurrogates = (s: string) => /[\uD800-\uDFFF]/.test(s);

/** UTF-16 index → code point index. */
export function toCodePointIndex(doc: string, utf16Index: number): number {
  if (!hasSurrogates(doc)) return utf16Index;
  let cp = 0;
  for (let i = 0; i < utf16Index; i++) {
    const c = doc.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < utf16Index) i++;
    cp++;
  }
  return cp;
}

/** Code point index → UTF-16 index (clamped to the document). */
export function toUtf16Index(doc: string, cpIndex: number): number {
  if (!hasSurrogates(doc)) return Math.min(cpIndex, doc.length);
  let i = 0;
  for (let cp = 0; cp < cpIndex && i < doc.length; cp++) {
    const c = doc.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  }
  return i;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every [start, end) (UTF-16) where `quote` occurs, allowing any run of whitespace where it has one. */
function occurrences(doc: string, quote: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const words = quote.trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return out;
  const pattern = new RegExp(words.map(escapeRegExp).join('\\s+'), 'g');
  for (let m = pattern.exec(doc); m !== null && out.length < 1000; m = pattern.exec(doc)) {
    out.push([m.index, m.index + m[0].length]);
    pattern.lastIndex = m.index + 1;
  }
  return out;
}

/** The Markdown heading (`# …`) above `utf16Index`, if any. */
export function sectionAt(doc: string, utf16Index: number): string | null {
  const before = doc.slice(0, utf16Index);
  const headings = [...before.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)];
  const last = headings[headings.length - 1];
  return last?.[1]?.trim() || null;
}

/** 1-based paragraph number of `utf16Index`: paragraphs are separated by blank lines. */
export function paragraphAt(doc: string, utf16Index: number): number {
  const before = doc.slice(0, utf16Index).replace(/^\s+/, '');
  const breaks = before.match(/\n[ \t]*\n\s*(?=\S)/g)?.length ?? 0;
  const endsWithBreak = /\n[ \t]*\n\s*$/.test(before);
  return breaks + (endsWithBreak ? 1 : 0) + 1;
}

/**
 * Finds the quote in the document. The offsets given (code points) are tried first; when
 * the text there is not the quote, the occurrence nearest to them is taken, matching
 * whitespace loosely. Answers undefined when the quote is not in the document.
 */
export function locateSource(doc: string, hint: SourceHint): LocatedSource | undefined {
  const quote = hint.source_text ?? '';
  if (quote.trim().length === 0) return undefined;
  let range: [number, number] | undefined;
  if (hint.char_start != null && hint.char_end != null && hint.char_end > hint.char_start) {
    const start = toUtf16Index(doc, hint.char_start);
    const end = toUtf16Index(doc, hint.char_end);
    if (doc.slice(start, end) === quote) range = [start, end];
  }
  if (range === undefined) {
    const found = occurrences(doc, quote);
    if (found.length === 0) return undefined;
    const wanted = hint.char_start != null ? toUtf16Index(doc, hint.char_start) : 0;
    range = found.reduce((best, r) => (Math.abs(r[0] - wanted) < Math.abs(best[0] - wanted) ? r : best));
  }
  const [start, end] = range;
  return {
    section: sectionAt(doc, start),
    paragraph: paragraphAt(doc, start),
    char_start: toCodePointIndex(doc, start),
    char_end: toCodePointIndex(doc, end),
    source_text: doc.slice(start, end),
  };
}

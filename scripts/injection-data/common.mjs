// Helpers shared by the data generators: a seeded PRNG (mulberry32) so every run writes the same
// file, and small template utilities.

export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  const chance = (p) => next() < p;
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const sample = (arr, n) => {
    const copy = [...arr];
    const out = [];
    while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
    return out;
  };
  const shuffle = (arr) => sample(arr, arr.length);
  return { next, pick, chance, int, sample, shuffle };
}

/** Replaces {key} with vars[key] (a string, or a function returning one). */
export function fill(template, vars) {
  return template.replace(/\{(\w+)\}/g, (m, k) => {
    const v = vars[k];
    if (v === undefined) return m;
    return typeof v === 'function' ? v() : v;
  });
}

export const cap = (s) => (s.length === 0 ? s : s[0].toUpperCase() + s.slice(1));

/** Obfuscations an attacker applies to a sentence (the detector must see through each). */
export function obfuscations(r) {
  const homoglyph = (s) =>
    s.replace(/[aeopcxyi]/g, (c) => (r.chance(0.5) ? { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', i: 'і' }[c] : c));
  const zeroWidth = (s) => s.replace(/(\w)(?=\w)/g, (c) => (r.chance(0.4) ? c + r.pick(['\u200b', '\u200c', '\u2060', '\u200d']) : c));
  const leet = (s) => s.replace(/[aeiost]/gi, (c) => (r.chance(0.7) ? { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' }[c.toLowerCase()] : c));
  const spaced = (s) => s.split(' ').map((w) => w.split('').join(' ')).join('   ');
  const base64 = (s) => Buffer.from(s, 'utf8').toString('base64');
  const hex = (s) => Buffer.from(s, 'utf8').toString('hex').replace(/(..)/g, r.chance(0.5) ? '$1 ' : '$1').trim();
  const rot13 = (s) => s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)));
  const reversed = (s) => [...s].reverse().join('');
  const tags = (s) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const fullwidth = (s) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  const urlenc = (s) => encodeURIComponent(s).replace(/[A-Za-z]/g, (c) => (r.chance(0.5) ? `%${c.charCodeAt(0).toString(16)}` : c));
  return { homoglyph, zeroWidth, leet, spaced, base64, hex, rot13, reversed, tags, fullwidth, urlenc };
}

/**
 * A harness's prompts → the ones a run sends (docs/evaluations.md, "Sampling and seeds").
 * Stratified: the sample is shared out over scenarios, then over each scenario's probes, then
 * over each probe's base prompts (so a small sample covers many scenarios and bases rather
 * than many variations of one base), every share at least one while the sample allows, the
 * rest in proportion to size. Seeded: the same harness, size and seed give the same prompts.
 * A paraphrase pair is one unit (both members or neither: a pair is judged on both answers).
 */
import { randomInt } from 'node:crypto';
import { hashSeed, mulberry32, shuffled } from '../attacks/random.js';
import type { EvalPrompt, HarnessDefinition } from './types.js';

/** A fresh seed for a run that did not give one: a non-negative 31-bit integer (fits every integer column). */
export const newSeed = (): number => randomInt(0, 2 ** 31);

interface Unit {
  id: string;
  path: [string, string, string];
  prompts: EvalPrompt[];
}

/** Prompts grouped into units: a pair's members together, any other prompt alone. */
function unitsOf(prompts: readonly EvalPrompt[]): Unit[] {
  const units = new Map<string, Unit>();
  for (const prompt of prompts) {
    const id = prompt.expect.kind === 'consistent' ? `pair:${prompt.expect.pair}` : prompt.id;
    const unit = units.get(id);
    if (unit) unit.prompts.push(prompt);
    else units.set(id, { id, path: [prompt.scenario, prompt.probe, prompt.base], prompts: [prompt] });
  }
  return [...units.values()];
}

/**
 * Shares `quota` out over groups of the given sizes: one each (chosen at random when there
 * are fewer than groups), the rest by largest remainder in proportion to what each can still take.
 */
export function allocate(sizes: readonly number[], quota: number, random: () => number): number[] {
  const total = sizes.reduce((t, s) => t + s, 0);
  if (quota >= total) return [...sizes];
  const out = sizes.map(() => 0);
  const order = shuffled(sizes.map((_, i) => i), random);
  if (quota < sizes.length) {
    for (const i of order.slice(0, quota)) out[i] = 1;
    return out;
  }
  sizes.forEach((size, i) => (out[i] = Math.min(1, size)));
  let left = quota - out.reduce((t, s) => t + s, 0);
  while (left > 0) {
    const room = sizes.map((size, i) => size - (out[i] as number));
    const roomTotal = room.reduce((t, r) => t + r, 0);
    const exact = room.map((r) => (r * left) / roomTotal);
    const floors = exact.map(Math.floor);
    floors.forEach((f, i) => (out[i] = (out[i] as number) + f));
    let rest = left - floors.reduce((t, f) => t + f, 0);
    // Largest remainders first; ties broken by the seeded order.
    const byRemainder = [...order].sort((a, b) => (exact[b] as number) - (floors[b] as number) - ((exact[a] as number) - (floors[a] as number)));
    for (const i of byRemainder) {
      if (rest === 0) break;
      if ((out[i] as number) < (sizes[i] as number)) {
        out[i] = (out[i] as number) + 1;
        rest -= 1;
      }
    }
    left = rest;
  }
  return out;
}

function sampleLevel(units: readonly Unit[], quota: number, depth: number, seed: number, key: string): Unit[] {
  const random = mulberry32(hashSeed(seed, key));
  if (depth === 3) return shuffled(units, random).slice(0, quota);
  const groups = new Map<string, Unit[]>();
  for (const unit of units) {
    const k = unit.path[depth] as string;
    groups.set(k, [...(groups.get(k) ?? []), unit]);
  }
  const entries = [...groups.entries()];
  const shares = allocate(entries.map(([, g]) => g.length), quota, random);
  return entries.flatMap(([k, group], i) => (shares[i] ? sampleLevel(group, shares[i] as number, depth + 1, seed, `${key}/${k}`) : []));
}

/**
 * The prompts a run sends: all of them when `sampleSize` is null or covers the harness, else a
 * stratified sample of `sampleSize` units, in the harness's own order.
 */
export function selectPrompts(harness: HarnessDefinition | readonly EvalPrompt[], sampleSize: number | null, seed: number): EvalPrompt[] {
  const prompts = Array.isArray(harness) ? (harness as readonly EvalPrompt[]) : (harness as HarnessDefinition).prompts();
  if (sampleSize === null) return [...prompts];
  if (!Number.isInteger(sampleSize) || sampleSize < 1) throw new RangeError(`sampleSize must be a positive integer, got ${sampleSize}`);
  const units = unitsOf(prompts);
  if (sampleSize >= units.length) return [...prompts];
  const chosen = new Set(sampleLevel(units, sampleSize, 0, seed, prompts[0]?.harness ?? '').flatMap((u) => u.prompts.map((p) => p.id)));
  return prompts.filter((p) => chosen.has(p.id));
}

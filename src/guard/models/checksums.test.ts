import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The shipped models are what the training scripts produced: each script records the SHA-256 of the model it
 * wrote beside the SHA-256 of the data it read (scripts/model-checksums.mjs). A model edited by hand, or
 * trained on other data than the committed files, fails here; `--check` of either script retrains and
 * compares byte for byte (docs/guardrails.md, "The classifier and how to retrain it").
 */
const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url));
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

interface Entry {
  sha256: string;
  trainedOn: { files?: string[]; file?: string; sha256: string };
}
const recorded = JSON.parse(read('src/guard/models/checksums.json').toString('utf8')) as Record<string, Entry>;

describe('shipped model checksums', () => {
  it('records both models, and nothing else', () => {
    expect(Object.keys(recorded).sort()).toEqual(['injection-classifier.json', 'ngram-lm.json']);
  });

  for (const [name, entry] of Object.entries(recorded)) {
    it(`${name} is the file its training script recorded`, () => {
      const bytes = read(`src/guard/models/${name}`);
      expect(sha256(bytes)).toBe(entry.sha256);
    });

    it(`${name} was trained on the committed data the record names`, () => {
      const files = entry.trainedOn.files ?? [entry.trainedOn.file ?? ''];
      const hash = createHash('sha256');
      for (const file of files) hash.update(read(file));
      expect(hash.digest('hex')).toBe(entry.trainedOn.sha256);
      const model = JSON.parse(read(`src/guard/models/${name}`).toString('utf8')) as { trainedOn: { sha256: string } };
      expect(model.trainedOn.sha256).toBe(entry.trainedOn.sha256);
    });
  }

});

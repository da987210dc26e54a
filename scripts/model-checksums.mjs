// The record of what the training scripts produced: src/guard/models/checksums.json holds, for each
// shipped model file, the SHA-256 of its bytes beside the SHA-256 of the data it was trained on.
// Only the training scripts write it (recordModel after writing a model); a unit test
// (src/guard/models/checksums.test.ts) recomputes both, so a hand-edited model, or a model trained
// on other data than the committed files, fails.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const CHECKSUMS_FILE = 'src/guard/models/checksums.json';

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The recorded entries, by model file name ({} when there is no record yet). */
export function readChecksums(root) {
  const file = path.join(root, CHECKSUMS_FILE);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** Records what a training script wrote: the model's bytes and what it was trained on ({ files | file, sha256 }). */
export function recordModel(root, modelFile, bytes, trainedOn) {
  const all = readChecksums(root);
  all[path.basename(modelFile)] = { sha256: sha256(bytes), trainedOn };
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
  writeFileSync(path.join(root, CHECKSUMS_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
}

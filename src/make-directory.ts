import fs from 'node:fs';
import path from 'node:path';

/**
 * `fs.mkdirSync(dir, { recursive: true, mode })` that always returns or throws.
 *
 * Node 20's recursive mkdir loops for ever when mkdir answers ENOENT for a folder whose parent
 * exists: it takes ENOENT to mean "make the parent first", finds the parent there, and tries
 * the child again. /proc answers every new name that way, so `WARDEN_DATA_DIR=/proc/nope` spun
 * a core and never started (issue 17). Here each missing folder, from the top down, is made
 * once with a plain mkdir, whose error (ENOENT, EACCES, ENOTDIR, EROFS…) is thrown as it is.
 */
export function makeDirectory(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let current = path.resolve(dir);
  while (fs.statSync(current, { throwIfNoEntry: false }) === undefined) {
    missing.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const folder of missing.reverse()) {
    try {
      fs.mkdirSync(folder, { mode });
    } catch (error) {
      // Another process made it meanwhile: fine, as with the recursive form.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!fs.statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', path: dir });
  }
}

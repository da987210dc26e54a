import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectory } from './make-directory.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-mkdir-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const codeOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
  return 'no error';
};

describe('makeDirectory', () => {
  it('makes every missing folder, private to the user, and accepts one that exists', () => {
    const deep = path.join(root, 'a', 'b', 'c');
    makeDirectory(deep);
    expect(fs.statSync(deep).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(root, 'a')).mode & 0o777).toBe(0o700);
    makeDirectory(deep);
    makeDirectory(root);
  });

  it('throws where the recursive mkdir of Node 20 loops for ever: a new name under /proc', () => {
    // mkdir answers ENOENT there although /proc exists (issue 17: WARDEN_DATA_DIR=/proc/nope).
    expect(codeOf(() => makeDirectory('/proc/warden-nope/data'))).toBe('ENOENT');
  });

  it('throws ENOTDIR for a file in the way, or a file where the folder should be', () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(codeOf(() => makeDirectory(path.join(file, 'sub')))).toBe('ENOTDIR');
    expect(codeOf(() => makeDirectory(file))).toBe('ENOTDIR');
  });
});

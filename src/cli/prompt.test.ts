import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { firstLine, readHidden, type TerminalInput } from './prompt.js';

/** A fake terminal: records raw mode, and what was written to it. */
function terminal(): { input: TerminalInput & PassThrough; output: PassThrough; written: () => string; modes: boolean[] } {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (mode: boolean) => modes.push(mode) });
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { input, output, written: () => text, modes };
}

describe('readHidden (warden login on a terminal)', () => {
  it('echoes nothing typed, honours Backspace, and leaves raw mode at the end', async () => {
    const t = terminal();
    const answer = readHidden(t.input, t.output, 'password: ');
    t.input.write('s3cretX');
    t.input.write('\u007f-pass\r');
    expect(await answer).toBe('s3cret-pass');
    expect(t.written()).toBe('password: \n');
    expect(t.modes).toEqual([true, false]);
  });

  it('gives up on Ctrl-C', async () => {
    const t = terminal();
    const answer = readHidden(t.input, t.output, 'password: ');
    t.input.write('abc\u0003');
    expect(await answer).toBeNull();
  });
});

describe('firstLine (a password piped in)', () => {
  it('reads the first line without its line ending', async () => {
    const input = new PassThrough();
    input.end('pass word\r\nignored\n');
    expect(await firstLine(input)).toBe('pass word');
  });
});

/**
 * Reading what a person types: a secret (a password) without echo on a terminal, or the first
 * line of standard input when it is not one (a CI job pipes the password in).
 */

/** A terminal input, as process.stdin is one when it is a TTY. */
export interface TerminalInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** The first line of a stream that is not a terminal. */
export async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return (Buffer.concat(chunks).toString('utf8').split('\n')[0] ?? '').replace(/\r$/, '');
}

/**
 * Reads a secret from a terminal in raw mode: nothing typed is written back (readline's own
 * echo cannot be muted reliably across Node versions), Backspace deletes, Enter ends,
 * Ctrl-C and Ctrl-D give up (null).
 */
export function readHidden(input: TerminalInput, output: NodeJS.WritableStream, prompt: string): Promise<string | null> {
  output.write(prompt);
  input.setRawMode?.(true);
  input.resume();
  return new Promise((resolve) => {
    let secret = '';
    const finish = (value: string | null) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return finish(secret);
        if (char === '\u0003' || char === '\u0004') return finish(null);
        if (char === '\u007f' || char === '\b') secret = [...secret].slice(0, -1).join('');
        else if (char >= ' ') secret += char;
      }
    };
    input.on('data', onData);
  });
}

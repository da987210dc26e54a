import { createInterface } from 'node:readline/promises';
import type { WardenApi } from './api.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * While a command waits for a run, Ctrl-C asks on a terminal whether to cancel the run on the
 * server (the run goes on otherwise, and its id is printed). Without a terminal (a CI job being
 * stopped) it cancels: a stopped pipeline should not leave work running for nobody. `beforeAsk`
 * stops the progress bar, which would otherwise redraw over the question.
 */
export function cancelOnInterrupt(
  api: WardenApi,
  what: string,
  cancelPath: string,
  err: (line: string) => void,
  beforeAsk: () => void = () => {},
): () => void {
  let asked = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (asked) process.exit(130);
    asked = true;
    void (async () => {
      let cancel = true;
      if (process.stdin.isTTY && signal === 'SIGINT') {
        beforeAsk();
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        const answer = await rl.question(`\nCancel ${what} on the server? [y/N] `);
        rl.close();
        cancel = /^y(es)?$/i.test(answer.trim());
      }
      if (cancel) {
        try {
          await api.post(cancelPath);
          err(`cancelled ${what}`);
        } catch (error) {
          err(`could not cancel ${what}: ${(error as Error).message}`);
        }
      } else {
        err(`left ${what} running on the server`);
      }
      process.exit(130);
    })();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

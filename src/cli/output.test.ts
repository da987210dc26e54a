import { describe, expect, it } from 'vitest';
import { Progress } from './output.js';

function stream(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const fake = { isTTY, write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
  return { stream: fake, text: () => text };
}

describe('Progress', () => {
  it('draws one bar in place on a terminal, the note alone while the size is unknown, nothing once paused', () => {
    const out = stream(true);
    const progress = new Progress(out.stream, 'prompts');
    progress.update(0, 0, 'Queued: waiting for a worker');
    progress.update(5, 10);
    progress.pause();
    progress.update(8, 10);
    expect(out.text()).toBe('\r\x1b[2Kprompts: Queued: waiting for a worker\r\x1b[2Kprompts [###############---------------] 5/10');
  });

  it('writes plain lines elsewhere, one per tenth of the run', () => {
    let now = 0;
    const out = stream(false);
    const progress = new Progress(out.stream, 'prompts', () => now);
    progress.update(0, 0, 'Queued');
    for (const done of [1, 10, 11, 25, 100]) {
      now += 1000;
      progress.update(done, 100);
    }
    progress.end();
    expect(out.text()).toBe('prompts: Queued\nprompts: 10/100\nprompts: 25/100\nprompts: 100/100\n');
  });
});

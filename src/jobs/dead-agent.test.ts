import { describe, expect, it } from 'vitest';
import { DEAD_AGENT_UNITS, DeadAgentError, deadAgentWatch } from './dead-agent.js';

const refused = 'the agent could not be reached: connect ECONNREFUSED 127.0.0.1:9';

describe('deadAgentWatch', () => {
  it('ends the run at the 10th failure when none of the first units got an answer, naming the error', () => {
    const watch = deadAgentWatch({ noun: 'prompt' });
    for (let i = 1; i < DEAD_AGENT_UNITS; i++) expect(watch.record(refused)).toBeUndefined();
    const end = watch.record(refused);
    expect(end).toBeInstanceOf(DeadAgentError);
    expect(end?.message).toBe(`No prompt got an answer from the agent (the first 10 all failed): ${refused}`);
  });

  it('after an answer, ends it only after 10 failures in a row, saying the agent stopped answering', () => {
    const watch = deadAgentWatch({ noun: 'attack' });
    for (let i = 0; i < 9; i++) watch.record(refused);
    expect(watch.record(null)).toBeUndefined();
    // Nine failures, an answer, nine failures: never ten in a row.
    for (let i = 0; i < 9; i++) expect(watch.record(refused)).toBeUndefined();
    expect(watch.record(null)).toBeUndefined();
    for (let i = 0; i < 9; i++) expect(watch.record('the agent answered HTTP 500')).toBeUndefined();
    const end = watch.record('the agent answered HTTP 500');
    expect(end?.message).toBe('The agent stopped answering: the last 10 attacks all failed: the agent answered HTTP 500');
  });

  it('counts the answers of a resumed run stored before', () => {
    const watch = deadAgentWatch({ noun: 'prompt', answeredBefore: true, limit: 2 });
    watch.record(refused);
    expect(watch.record(refused)?.message).toMatch(/^The agent stopped answering: the last 2 prompts all failed/);
  });

  it('clips a long error', () => {
    const watch = deadAgentWatch({ noun: 'prompt', limit: 1 });
    expect(watch.record('x'.repeat(1000))?.message.length).toBeLessThan(400);
  });
});

// `node bench/tools/hand-off.mjs`: what one hand-off to another thread costs on this machine, the
// unit behind the SQLite writer thread's design (docs/decisions.md, "Fewer hand-offs to the SQLite
// writer thread"). A worker that sleeps in Atomics.wait, as src/db/sqlite-writer-thread.ts's does,
// is sent a message shaped like a writer call and answers on its parent port; the main thread's own
// CPU time (/proc/thread-self/stat) and the wall time are measured per round trip:
//   busy:  round trips back to back (both threads stay awake between them);
//   idle:  a 1 ms timer between round trips (both threads fall asleep first, as at a moderate rate);
//   timer: the 1 ms timer alone (what waking from idle costs without any hand-off).
// A script, not a test: nothing here asserts a timing. Environment: HAND_OFF_ROUNDS (default 3,000).
import { MessageChannel, Worker } from 'node:worker_threads';
import { statTimes } from './service.mjs';

const ROUNDS = Number(process.env.HAND_OFF_ROUNDS ?? 3000);
const signal = new Int32Array(new SharedArrayBuffer(16));
const { port1, port2 } = new MessageChannel();
const worker = new Worker(
  `const { workerData, receiveMessageOnPort, parentPort } = require('node:worker_threads');
   const { port, signal } = workerData;
   for (;;) {
     Atomics.wait(signal, 0, 0);
     Atomics.store(signal, 0, 0);
     while (receiveMessageOnPort(port) !== undefined) parentPort.postMessage({ ok: true, value: { changes: 1 } });
   }`,
  { eval: true, workerData: { port: port2, signal }, transferList: [port2] },
);
worker.unref();

/** This thread's user + system CPU time in ms (clock ticks of 10 ms: use many rounds). */
const threadCpuMs = () => {
  const { user, system } = statTimes('/proc/thread-self/stat');
  return (user + system) / 1000;
};

let answered = () => {};
worker.on('message', () => answered());
const roundTrip = () =>
  new Promise((resolve) => {
    answered = resolve;
    const write = { k: 'exec', sql: 'UPDATE agents SET trust_stage = ? WHERE id = ?', params: ['tested', 'a'] };
    port1.postMessage({ ops: [{ k: 'each', ops: [write] }], async: true });
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

async function measure(name, rounds, once) {
  const cpu0 = threadCpuMs();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await once();
  const wall = ((performance.now() - t0) * 1000) / rounds;
  const cpu = ((threadCpuMs() - cpu0) * 1000) / rounds;
  console.log(`${name.padEnd(6)} wall ${wall.toFixed(1).padStart(7)} µs · main thread CPU ${cpu.toFixed(1).padStart(6)} µs per round`);
  return cpu;
}

await tick();
await measure('busy', ROUNDS, roundTrip);
const idle = await measure('idle', Math.ceil(ROUNDS / 3), async () => {
  await tick();
  await roundTrip();
});
const timer = await measure('timer', Math.ceil(ROUNDS / 3), tick);
console.log(`a hand-off from idle costs about ${(idle - timer).toFixed(0)} µs of the main thread's CPU beyond the wake-up itself`);
process.exit(0);

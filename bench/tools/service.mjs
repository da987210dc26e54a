// What the benches that start the built service share: its `npm start` node flags, a free
// loopback port, a log line stamped with the seconds since the bench began, and a process's CPU time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';

/** The node flags of package.json's `start` script, so that the service runs (and its RSS is) the deployed one's. */
export function startFlags(root) {
  const start = String(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts?.start ?? '');
  const match = /node((?:\s+--\S+)*)\s+dist\/main\.js/.exec(start);
  return (match?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** `log(message)`: the message after the seconds since this call. */
export function elapsedLog() {
  const began = Date.now();
  return (message) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

/**
 * CPU time (user + system) a process has used, in microseconds, from /proc/<pid>/stat.
 * Per request, it is the measure least moved by whatever else the machine runs: a loaded
 * machine lowers req/s, but hardly the CPU each request costs.
 */
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** User and system time, in microseconds, of a /proc `stat` file (a process's or a thread's). */
/** A task's user and system CPU time in µs, from a `/proc/…/stat` file (a process, or a thread: `/proc/thread-self/stat`). */
export function statTimes(file) {
  const stat = fs.readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ", field 3 is the state: utime and stime are fields 14 and 15 (1-based).
  return { user: (Number(fields[11]) * 1e6) / CLOCK_TICKS, system: (Number(fields[12]) * 1e6) / CLOCK_TICKS };
}

export function cpuMicrosOf(pid) {
  try {
    const { user, system } = statTimes(`/proc/${pid}/stat`);
    return user + system;
  } catch {
    return NaN;
  }
}

/**
 * A process's CPU time by thread, in microseconds, from /proc/<pid>/task/<tid>/stat: the main
 * thread's (the event loop: its tid is the pid) user and system time apart, and every other
 * thread's together (the SQLite writer, V8's helpers for garbage collection and compilation,
 * libuv's pool). Where the main thread's system time is large, the request's syscalls and thread
 * switches cost more than its JavaScript. Null fields off Linux.
 */
export function threadCpuOf(pid) {
  const out = { mainUser: NaN, mainSystem: NaN, others: 0 };
  let tids;
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return { mainUser: NaN, mainSystem: NaN, others: NaN };
  }
  for (const tid of tids) {
    let user, system;
    try {
      ({ user, system } = statTimes(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      continue; // the thread ended meanwhile
    }
    if (tid === String(pid)) {
      out.mainUser = user;
      out.mainSystem = system;
    } else out.others += user + system;
  }
  return out;
}

/** A request's CPU by thread as a table cell: the event loop's user + system time · the other threads'. */
export function formatThreadSplit(t) {
  if (!t || !Number.isFinite(t.main_user_us)) return '-';
  return `${t.main_user_us.toFixed(0)}+${t.main_system_us.toFixed(0)} · ${t.other_threads_us.toFixed(0)}`;
}

/** threadCpuOf(pid) after minus before, per request. */
export function threadCpuPerRequest(before, after, requests) {
  const per = (a, b) => (requests > 0 ? (a - b) / requests : NaN);
  return {
    main_user_us: per(after.mainUser, before.mainUser),
    main_system_us: per(after.mainSystem, before.mainSystem),
    other_threads_us: per(after.others, before.others),
  };
}

/**
 * The built service as `npm start` runs it (its node flags), on a fresh SQLite file in a temporary
 * folder, the first super admin `admin`, `env` added; resolves once /healthz answers.
 */
export async function startBuiltService({ root, main, admin, label, env = {} }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `warden-bench-${label}-`));
  const port = await freePort();
  // BENCH_NODE_ARGS replaces the flags of `npm start` (as in bench/run.mjs), e.g. to add `--cpu-prof`.
  const flags = process.env.BENCH_NODE_ARGS === undefined ? startFlags(root) : process.env.BENCH_NODE_ARGS.split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...flags, main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WARDEN_DATABASE_URL: `sqlite:${path.join(dir, 'warden.db')}`,
      WARDEN_DATA_DIR: dir,
      WARDEN_ADMIN_EMAIL: admin.email,
      WARDEN_ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (i > 300) throw new Error('the service did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Preloaded into the service (`--import ./bench/tools/memory-peaks.mjs`) to see what holds its
// memory under load: every 100 ms it samples process.memoryUsage() (the main isolate's heap,
// `external`, `arrayBuffers`, and the process's RSS) and /proc/self/status (VmRSS, VmHWM,
// RssAnon, RssFile), and writes the peak of each to $MEMORY_PEAKS as JSON. What RSS holds
// beyond the main isolate (heapTotal + external) is the writer thread's isolate, native memory
// (SQLite's page caches, malloc arenas) and code.
//   BENCH_NODE_ARGS="--max-semi-space-size=8 --import ./bench/tools/memory-peaks.mjs" \
//   BENCH_SERVICE_ENV='{"MEMORY_PEAKS":"/tmp/peaks.json"}' BENCH_ONLY=... node bench/run.mjs
import fs from 'node:fs';

const file = process.env.MEMORY_PEAKS;
if (file) {
  const peaks = {};
  const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
  const status = () => {
    const out = {};
    for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem|Threads):\s+(\d+)/.exec(line);
      if (m) out[m[1]] = m[1] === 'Threads' ? Number(m[2]) : mb(Number(m[2]) * 1024);
    }
    return out;
  };
  const sample = () => {
    const usage = process.memoryUsage();
    const now = {
      ...status(),
      rss: mb(usage.rss),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
    };
    now.beyondMainIsolate = Math.round((now.rss - now.heapTotal - now.external) * 10) / 10;
    for (const [key, value] of Object.entries(now)) peaks[key] = Math.max(peaks[key] ?? -Infinity, value);
    peaks.atPeakRss = peaks.rss === now.rss ? now : peaks.atPeakRss ?? now;
    fs.writeFileSync(file, JSON.stringify(peaks, null, 1));
  };
  setInterval(sample, 100).unref();
}

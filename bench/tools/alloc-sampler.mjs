// Allocation sampling for the service, as a preload:
//   BENCH_NODE_ARGS="--max-old-space-size=160 --import=./bench/tools/alloc-sampler.mjs"
// The first SIGUSR2 starts V8's sampling heap profiler (objects already collected by the
// young and the old generation's collections included, so it counts garbage too); the second
// writes the profile to $ALLOC_PROFILE (default /tmp/warden.heapprofile), which Chrome
// DevTools' Memory tab opens. Bytes per request = the profile's total / requests in between.
import fs from 'node:fs';
import inspector from 'node:inspector';

const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    return;
  }
  sampling = false;
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) return console.error('alloc-sampler:', error.message);
    const file = process.env.ALLOC_PROFILE ?? '/tmp/warden.heapprofile';
    fs.writeFileSync(file, JSON.stringify(result.profile));
    console.error(`alloc-sampler: wrote ${file}`);
  });
});

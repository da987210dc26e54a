-- One benchmark scenario for wrk, configured by environment variables (set by bench/run.mjs):
--   BENCH_KIND   get | lifecycle | update | offset
--   BENCH_PATH   request path; "{id}" is replaced by an agent id from BENCH_IDS
--   BENCH_IDS    file with one agent id per line (write scenarios)
--   BENCH_TOKEN  bearer token
--   BENCH_OFFSET, BENCH_OFFSET_SPAN  the "offset" kind asks offset + (n * 7919 mod span): 7919 is
--                a prime that divides no span used here, so `span` requests in a row each ask a
--                different page, spread over the whole range instead of walking it in order
--   BENCH_COUNTER_START  the first n (run.mjs gives the warm-up and the measured run apart ranges)
-- done() prints one JSON line with the numbers run.mjs reads.
local kind = os.getenv("BENCH_KIND") or "get"
local path = os.getenv("BENCH_PATH") or "/"
local token = os.getenv("BENCH_TOKEN") or ""
local ids = {}
local counter = 0
local thread_no = 0
local threads = {}

function setup(thread)
  thread:set("thread_no", #threads)
  table.insert(threads, thread)
end

function init(args)
  local file = os.getenv("BENCH_IDS")
  if file ~= nil and file ~= "" then
    for line in io.lines(file) do
      if #line > 0 then table.insert(ids, line) end
    end
  end
  -- Threads start at different places so that they do not write the same agents in step.
  counter = tonumber(os.getenv("BENCH_COUNTER_START") or "0") + (thread_no or 0) * 7919
  wrk.headers["Authorization"] = "Bearer " .. token
  wrk.headers["Accept"] = "application/json"
  if kind ~= "get" and kind ~= "offset" then
    wrk.method = "PUT"
    wrk.headers["Content-Type"] = "application/json"
  end
end

local stages = { "tested", "hardened", "trusted", "optimized", "adapted", "registered" }

function request()
  counter = counter + 1
  if kind == "get" then
    return wrk.format(nil, path)
  end
  if kind == "offset" then
    -- A page no one asked for before: the answer cannot come from a cache.
    local span = tonumber(os.getenv("BENCH_OFFSET_SPAN") or "1000000")
    local offset = tonumber(os.getenv("BENCH_OFFSET") or "0") + (counter * 7919) % span
    return wrk.format(nil, path .. "&offset=" .. offset)
  end
  local id = ids[(counter % #ids) + 1]
  local p = string.gsub(path, "{id}", id)
  local body
  if kind == "lifecycle" then
    body = '{"trust_stage":"' .. stages[(counter % #stages) + 1] .. '"}'
  else
    body = '{"agent_name":"bench-agent-' .. counter .. '","rate_limit_requests_per_minute":' .. (100 + counter % 900) ..
      ',"agent_metadata":{"role":"support","version":"' .. counter .. '","tags":["bench"]},"purpose":null}'
  end
  return wrk.format(nil, p, nil, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end

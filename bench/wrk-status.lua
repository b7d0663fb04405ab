-- Counts responses by HTTP status in every wrk thread and prints one JSON line in done():
--   wrk-result {"requests":N,"seconds":S,"errors":E,"p50_ms":..,"p99_ms":..,"statuses":{"302":N,...}}
-- wrk itself reports 3xx only as "Non-2xx"; a kill -9 benchmark needs the exact number of 302s received.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    table.insert(parts, string.format('"%d":%d', status, count))
  end
  local errors = summary.errors
  io.write(string.format(
    'wrk-result {"requests":%d,"seconds":%.3f,"errors":%d,"p50_ms":%.3f,"p99_ms":%.3f,"statuses":{%s}}\n',
    summary.requests, summary.duration / 1e6,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    table.concat(parts, ",")))
end

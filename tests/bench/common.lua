-- Shared by the wrk scripts of run_benchmarks.sh: credentials from the environment and a
-- done() report in one machine-readable line (latencies in milliseconds).
local common = {}

-- "Basic base64(key_id:key_secret)", computed by run_benchmarks.sh.
common.authorization = os.getenv("BENCH_AUTH") or error("BENCH_AUTH is not set")

function common.report(name, summary, latency)
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        "RESULT name=%s requests=%d seconds=%.2f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f"
            .. " non2xx=%d socket_errors=%d\n",
        name, summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
        latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end

return common

-- Shared by the wrk scripts of run_benchmarks.sh: credentials from the environment and a
-- done() report in one machine-readable line (latencies in milliseconds).
local common = {}

-- "Basic base64(key_id:key_secret)", computed by run_benchmarks.sh.
common.authorization = os.getenv("BENCH_AUTH") or error("BENCH_AUTH is not set")

-- BENCH_AUTHS (optional): several "Basic …" values separated by commas, one per account (tests/bench/cluster_bench.sh
-- with ACCOUNTS > 1); common.pickAuthorization() then gives each request one of them at random, else BENCH_AUTH's.
local authorizations = {}
for value in string.gmatch(os.getenv("BENCH_AUTHS") or "", "[^,]+") do
    authorizations[#authorizations + 1] = value
end
function common.pickAuthorization()
    if #authorizations == 0 then
        return common.authorization
    end
    return authorizations[math.random(#authorizations)]
end

-- Gives each wrk thread its own random seed: `setup = common.setup` and `init = common.init` in a script.
local threadIndex = 0
function common.setup(thread)
    threadIndex = threadIndex + 1
    thread:set("seed", threadIndex)
end
function common.init(args)
    math.randomseed(os.time() * 100 + (seed or 0))
end

-- A random valid mobile number: ending in `ending` (a sandbox ending such as "0000") when given, else one that
-- avoids the sandbox endings 0000 (FAILED), 1111 and 2222 (PENDING), i.e. the SUCCESS path.
function common.phoneNumber(ending)
    if ending and ending ~= "" then
        return string.format("9%05d%s", math.random(0, 99999), ending)
    end
    while true do
        local tail = math.random(0, 999999999)
        local last4 = tail % 10000
        if last4 ~= 0 and last4 ~= 1111 and last4 ~= 2222 then
            return string.format("9%09d", tail)
        end
    end
end

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

-- wrk script: GET /api/v1/transactions/{id}, the status check, on random existing ids
-- 1..BENCH_MAX_ID (the sales the initiate run created).
local common = dofile((os.getenv("BENCH_DIR") or "tests/bench") .. "/common.lua")

local maxId = tonumber(os.getenv("BENCH_MAX_ID") or "") or error("BENCH_MAX_ID is not set")
local headers = { ["Authorization"] = common.authorization }

setup = common.setup
init = common.init

function request()
    return wrk.format("GET", "/api/v1/transactions/" .. math.random(1, maxId), headers)
end

function done(summary, latency, requests)
    common.report("status", summary, latency)
end

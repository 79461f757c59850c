-- wrk script: POST /api/v1/plans/mobile/prepaid-plans (endpoint 4) for one operator and circle
-- (BENCH_OPERATOR, default AT; BENCH_CIRCLE, default DL), the pre-serialized plan answer.
local common = dofile((os.getenv("BENCH_DIR") or "tests/bench") .. "/common.lua")

local body = string.format('{"operator_code":"%s","circle_code":"%s"}', os.getenv("BENCH_OPERATOR") or "AT",
    os.getenv("BENCH_CIRCLE") or "DL")
local headers = {
    ["Authorization"] = common.authorization,
    ["Content-Type"] = "application/json",
}

function request()
    return wrk.format("POST", "/api/v1/plans/mobile/prepaid-plans", headers, body)
end

function done(summary, latency, requests)
    common.report(os.getenv("BENCH_NAME") or "plans", summary, latency)
end

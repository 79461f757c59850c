-- wrk script: POST /api/v1/recharge/mobile/initiate-transaction, the sandbox SUCCESS path.
-- Every request is a new sale (no reference_id) of ₹10 on Airtel to a random valid number
-- that avoids the sandbox endings 0000 (FAILED), 1111 and 2222 (PENDING); amount is sent as a
-- JSON string like the spec's client samples. BENCH_ENDING (e.g. 0000: FAILED, 1111: PENDING then
-- SUCCESS) makes every number end in that sandbox ending instead. With BENCH_AUTHS (common.lua) each sale goes to one
-- of several accounts at random.
local common = dofile((os.getenv("BENCH_DIR") or "tests/bench") .. "/common.lua")

local path = "/api/v1/recharge/mobile/initiate-transaction"
local headers = {
    ["Authorization"] = common.authorization,
    ["Content-Type"] = "application/json",
}
local ending = os.getenv("BENCH_ENDING")

setup = common.setup
init = common.init

function request()
    headers["Authorization"] = common.pickAuthorization()
    local body = string.format('{"phone_number":"%s","amount":"10","operator_code":"AT"}', common.phoneNumber(ending))
    return wrk.format("POST", path, headers, body)
end

function done(summary, latency, requests)
    common.report(os.getenv("BENCH_NAME") or "initiate", summary, latency)
end

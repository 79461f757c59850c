-- wrk script for tests/bench/soak.sh (issue 17's sustained mix): per request, half sales (₹10 Airtel, the four
-- sandbox endings alike: SUCCESS, 0000 FAILED, 1111 PENDING then SUCCESS, 2222 PENDING then FAILED), a quarter
-- plan lookups (AT, DL), a quarter status checks of random ids among the sales made so far (BENCH_MAX_ID at the
-- start, then the highest id this thread has seen in a sale's answer).
local common = dofile((os.getenv("BENCH_DIR") or "tests/bench") .. "/common.lua")

local saleHeaders = { ["Authorization"] = common.authorization, ["Content-Type"] = "application/json" }
local getHeaders = { ["Authorization"] = common.authorization }
local plansBody = '{"operator_code":"AT","circle_code":"DL"}'
local endings = { nil, "0000", "1111", "2222" }
local maxId = tonumber(os.getenv("BENCH_MAX_ID") or "") or 1

setup = common.setup
init = common.init

function request()
    local r = math.random()
    if r < 0.5 then
        local body = string.format('{"phone_number":"%s","amount":"10","operator_code":"AT"}',
            common.phoneNumber(endings[math.random(1, 4)]))
        return wrk.format("POST", "/api/v1/recharge/mobile/initiate-transaction", saleHeaders, body)
    elseif r < 0.75 then
        return wrk.format("POST", "/api/v1/plans/mobile/prepaid-plans", saleHeaders, plansBody)
    end
    return wrk.format("GET", "/api/v1/transactions/" .. math.random(1, maxId), getHeaders)
end

function response(status, headers, body)
    local id = body and tonumber(string.match(body, '"transaction_id":(%d+)') or "")
    if id and id > maxId then
        maxId = id
    end
end

function done(summary, latency, requests)
    common.report(os.getenv("BENCH_NAME") or "mix", summary, latency)
end

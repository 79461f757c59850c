#pragma once

#include "services/numberlookup.h"

class ApiRouter;

/// GET /api/v1/numbers/{phone_number} (issue 29, beyond the spec; any key of the account): the operator and circle
/// last sold successfully to the number (NumberLookup), with when and how often, and the RechargeDesk upstream's own
/// answer (`upstream`, source "upstream") for a live caller; this server's answer wins when it has one, else the
/// upstream's is the answer. With `scope=network` (a downstream shop server asking its distributor) this server's
/// answer is of every account's sales of the caller's mode (NumberLookup::ofNetwork: only operator, circle, when and
/// how often — never which shop sold, the amounts or anything else). 404 `number_unknown` when neither knows the
/// number; 400 `invalid_phone_number`, or `invalid_query_parameter` for a `scope` other than account or network.
class NumbersController
{
public:
    NumbersController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher, int upstreamTimeoutMs)
        : m_lookup(db, clock, dispatcher, upstreamTimeoutMs)
    {}
    void registerRoutes(ApiRouter &router);

private:
    NumberLookup m_lookup;
};

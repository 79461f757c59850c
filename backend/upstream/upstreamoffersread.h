#pragma once

#include "entities/upstreaminfo.h"

#include <QString>

struct UpstreamAnswer;

/// What an upstream said, in its OpenAPI document, that it offers beyond api-v1.md (docs/upstream-contract.md,
/// "Kinds of upstream"). A RechargeDesk upstream serves GET {base_url}/openapi.json with a top-level
/// `x-rechargedesk-upstream` object ({"idempotent_reference_id": true, "status_check": true, "balance": true});
/// any other answer (404, no such object, not JSON) means the spec's promises only.
struct UpstreamOffersRead
{
    /// True when the upstream gave an answer that decides (2xx or 4xx); false for no answer or a 5xx: what was
    /// stored before stays.
    bool answered = false;
    UpstreamOffers offers; ///< all false unless it declared them
    QString message;       ///< in words, for `upstream check` and the settings card

    /// Reads the answer to GET {base_url}/openapi.json.
    static UpstreamOffersRead of(const UpstreamAnswer &answer);
};

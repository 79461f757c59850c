#pragma once

#include "salerequest.h"

/// What the fulfilment provider says of a sale at the moment it is asked.
enum class FulfilmentOutcome {
    Success,           ///< completed at once
    Failed,            ///< refused at once (the debit is refunded)
    PendingThenSuccess,///< accepted; completes after the settle delay
    PendingThenFailed, ///< accepted; fails after the settle delay (refunded then)
};

/// The provider that actually recharges a phone or issues a code (architecture.md, "Seams").
/// The sandbox decides by the test numbers of api-conventions.md; an upstream provider for
/// live keys plugs in here.
class Fulfilment
{
public:
    virtual ~Fulfilment() = default;
    /// Decides the outcome of one validated sale. Must not block.
    virtual FulfilmentOutcome decide(const SaleRequest &sale) = 0;
};

/// Deterministic outcomes for test keys (api-conventions.md, "Sandbox outcomes"): mobile and
/// DTH numbers ending in 0000 fail, 1111 pend then succeed, 2222 pend then fail; voucher
/// e-mails containing "+failed@", "+pending@", "+pendingfail@" do the same; anything else
/// succeeds at once.
class SandboxFulfilment final : public Fulfilment
{
public:
    FulfilmentOutcome decide(const SaleRequest &sale) override;
};

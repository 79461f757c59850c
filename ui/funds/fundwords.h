#pragma once

#include "entities/upstreamfundrequest.h"
#include "entities/upstreaminfo.h"
#include "entities/upstreamwallet.h"
#include "money.h"

#include <QCoreApplication>
#include <QString>

/// What the shop's Back office says about its fund requests and its float at the distributor (issue 30), in words
/// for people: the payment methods, a request's state, the difference between the two figures and what explains it.
class FundWords
{
    Q_DECLARE_TR_FUNCTIONS(FundWords)

public:
    /// Where the distributor is, for people: "distributor.example.in (upstream “default”)".
    static QString distributorText(const UpstreamInfo &upstream);
    /// "UPI", "Bank transfer", "Cash deposit"; the wire word itself when unknown.
    static QString methodText(const QString &method);
    /// "Sending", "Waiting for the distributor", "Approved — credited" (or "Approved — crediting here" until the
    /// wallet is credited), "Rejected: <reason>", "Refused: <words>".
    static QString stateText(const UpstreamFundRequest &request);
    /// "₹120.00 more here than at the distributor", "₹80.00 less here than at the distributor", or "The same here
    /// and at the distributor" for `difference` (ours − theirs, paise).
    static QString differenceText(Paise difference);
    /// "₹398.00 less here", "₹12.00 more here" (ours − theirs, paise), "₹0.00".
    static QString directionText(Paise amount);
    /// One explained part of the difference: "2 sales not known at the distributor: ₹398.00 less here" (kinds
    /// unknown_at_upstream, pending, mismatch, fund_request_not_credited; another kind by its wire name).
    static QString explanationText(const UpstreamWallet::Explanation &explanation);
    /// "Unexplained ₹3.00 less here — look into it".
    static QString unexplainedText(Paise unexplained);
};

#pragma once

#include "money.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

/// A fund request as the shop's own server keeps it (issue 30, "Fund requests", the shop's side): the shop asked its
/// RechargeDesk upstream (the distributor) to credit it; this record follows the request there. `sending` until the
/// upstream took it (sent again with the same reference_id until answered), then `pending` with the upstream's id,
/// and `approved` (the shop's own live wallet credited once: credited_at) or `rejected` (the distributor's reason);
/// `refused` when the upstream answered the request itself with a 4xx (its words in reason). The
/// `upstream_fund_request` entity of /api/v1/upstreams/{name}/fund-requests (docs/api/openapi.yaml). Money in paise;
/// times are instants written as IST "YYYY-MM-DD HH:MM:SS".
struct UpstreamFundRequest
{
    qint64 id = 0;
    QString upstream;    ///< the upstream's name among the server's upstreams
    qint64 remoteId = 0; ///< the upstream's fund request id; 0 (null) until it answered
    Paise amount = 0;    ///< > 0
    QString method;      ///< "upi", "bank" or "cash_deposit" (FundRequest::methods())
    QString utr;         ///< upper-cased, trimmed
    QString note;
    QString state;        ///< one of states()
    QString reason;       ///< the rejection's or refusal's words; "" (null) otherwise
    QDateTime creditedAt; ///< when the local live wallet was credited; invalid (null) until then
    QDateTime createdAt;

    /// The states on the wire: sending, pending, approved, rejected, refused.
    static const QStringList &states();
    /// True for approved, rejected and refused: nothing more will happen upstream.
    static bool isFinalState(const QString &state);

    /// {entity "upstream_fund_request", id, upstream, remote_id|null, amount "₹", method, utr, note, state,
    /// reason|null, credited_at|null, created_at}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field or an unknown state.
    static std::optional<UpstreamFundRequest> fromJson(const QJsonObject &json, QString *error);
};

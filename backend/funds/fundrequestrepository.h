#pragma once

#include "money.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

class Database;

/// A fund_requests row (migration 20) with its shop's name and whether another request has the same UTR. Times UTC
/// ms (0: none).
struct StoredFundRequest
{
    qint64 id = 0;
    qint64 accountId = 0; ///< the shop
    QString shopName;
    Paise amount = 0;
    QString method;
    QString utr;
    QString referenceId; ///< "" when the shop sent none
    QString note;
    QString slipType; ///< "" (no slip), "image/png" or "image/jpeg"
    QString state = QStringLiteral("pending");
    QString reason;
    QString decidedBy;
    qint64 decidedAtMs = 0;
    qint64 ledgerId = 0;
    qint64 createdAtMs = 0;
    bool duplicateUtr = false;
};

/// Which fund requests to list, and where the page starts (GET /api/v1/fund-requests).
struct FundRequestFilter
{
    qint64 accountId = 0; ///< one shop's, newest first; 0: every shop's, pending first, then oldest first
    QString state;        ///< pending, approved, rejected; "" for all
    int limit = 50;
    /// Keyset cursor: after the request `afterId` of the part `afterPart` (0 pending, 1 decided; every shop's order)
    /// or, for one shop's, before the request `afterId` (newest first). 0: from the start.
    int afterPart = 0;
    qint64 afterId = 0;
};

/// The fund_requests and fund_request_slips tables (migration 20). Writes run inside the caller's transaction. Every
/// call throws DatabaseError (isUniqueViolation() for a second request of a shop with the same reference_id).
class FundRequestRepository
{
public:
    explicit FundRequestRepository(Database &db) : m_db(db) {}

    /// Inserts `request` (id, shop name and duplicate flag ignored) and its slip's bytes when `slip` is not empty;
    /// returns its id.
    qint64 insert(const StoredFundRequest &request, const QByteArray &slip);
    /// The request by id (any shop's).
    std::optional<StoredFundRequest> find(qint64 id);
    /// The shop's request sent with `referenceId`.
    std::optional<StoredFundRequest> findByReference(qint64 accountId, const QString &referenceId);
    /// One page in the filter's order, the duplicate UTR flag read in the same query.
    QList<StoredFundRequest> list(const FundRequestFilter &filter);
    /// The slip's bytes of request `id`; empty when it has none.
    QByteArray slip(qint64 id);
    /// Decides a pending request: state approved / rejected, the reason, who and when. False (nothing written) when
    /// it was decided already — the one guard against deciding twice (UPDATE … WHERE state = 'pending').
    bool decide(qint64 id, const QString &state, const QString &reason, const QString &decidedBy, qint64 nowMs);
    /// Records the ledger row of an approved request's credit.
    void setLedgerId(qint64 id, qint64 ledgerId);
    /// The id of the newest ledger row of the account's live wallet (inside the write transaction that posted it).
    qint64 lastLiveLedgerId(qint64 accountId);
    /// Whether the account is a shop (a row of `shops`, migration 20) rather than the distributor's own account.
    bool isShop(qint64 accountId);

private:
    QList<StoredFundRequest> many(const QString &where, const QVariantList &values);

    Database &m_db;
};

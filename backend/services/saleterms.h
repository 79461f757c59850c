#pragma once

#include "entities/shopinfo.h"
#include "operatorcatalog.h"

#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>

class Database;

/// The terms a shop sells on (issue 6 item 7): the discount rate per operator, the sandbox
/// settle delay, and (issue 28) whether a sale needs an open shift. Both are shop settings (rows of shop_settings); an
/// operator without a row sells at the catalogue default, and a shop without a delay row uses the server's default
/// (`rechargedesk serve --settle-delay-ms`, 10 s). Read at sale time inside the sale's own
/// database transaction, so every server sharing the database charges the same rate and a
/// change applies to the next sale, never to one already written.
class SaleTerms
{
public:
    /// Highest accepted rate: 20 % (2000 bp). Recharge margins are a few percent; anything
    /// higher is a typing mistake that would sell below cost.
    static constexpr int kMaxBasisPoints = 2000;
    /// Longest accepted settle delay: one day, in milliseconds (as the serve option).
    static constexpr qint64 kMaxSettleDelayMs = 86'400'000;

    SaleTerms(Database &db, const OperatorCatalog &catalog, qint64 defaultSettleDelayMs)
        : m_db(db), m_catalog(catalog), m_defaultSettleDelayMs(defaultSettleDelayMs)
    {}

    /// The rate in basis points the account sells `operatorCode` at (a known code). Throws DatabaseError.
    int discountBasisPoints(qint64 accountId, const QString &operatorCode) const;
    /// Every operator's rate for the account, mobile then DTH then voucher. Throws DatabaseError.
    QList<DiscountRate> discountRates(qint64 accountId) const;
    /// How long a sandbox PENDING sale of the account waits before it settles, in ms. Throws DatabaseError.
    qint64 settleDelayMs(qint64 accountId) const;
    qint64 defaultSettleDelayMs() const { return m_defaultSettleDelayMs; }
    /// Issue 28: whether a sale of the account needs its person's open shift (the shop setting `shifts_enabled`,
    /// off unless an admin turned it on). Throws DatabaseError.
    bool shiftsRequired(qint64 accountId) const;
    /// The operator and circle tables the terms are checked against.
    const OperatorCatalog &catalog() const { return m_catalog; }

    /// The rates of a JSON `discount_basis_points` member, {CODE: bp} with bp a whole number (JsonFields' coercion,
    /// so "250" reads as 250); not yet validated (validateRates). Throws ApiError 400 `invalid_type` naming
    /// `discount_basis_points` when `value` is not an object, `not_an_integer` naming `discount_basis_points.<CODE>`.
    static QMap<QString, qint64> ratesFromJson(const QJsonValue &value);
    /// Throws ApiError 400 unless every key is a known operator code and every rate is
    /// 0..kMaxBasisPoints; the field named is `discount_basis_points.<CODE>`.
    void validateRates(const QMap<QString, qint64> &basisPoints) const;
    /// Throws ApiError 400 (field sandbox_settle_delay_ms) unless 0..kMaxSettleDelayMs.
    static void validateSettleDelay(qint64 delayMs);

    /// Stores validated rates / delay in the caller's open transaction. Throws DatabaseError.
    void storeRates(qint64 accountId, const QMap<QString, qint64> &basisPoints);
    void storeSettleDelay(qint64 accountId, qint64 delayMs);
    void storeShiftsRequired(qint64 accountId, bool required);

private:
    std::optional<QString> value(qint64 accountId, const QString &key) const;

    Database &m_db;
    const OperatorCatalog &m_catalog;
    qint64 m_defaultSettleDelayMs;
};

#pragma once

#include "entities/shop.h"
#include "money.h"

#include <QList>
#include <QString>

#include <optional>

class Database;
struct ShopListQuery;

/// The `shops` table (migration 20, issue 30) and the one query that lists shops with their live wallet and today's
/// daily_totals. Calls that write run inside the caller's transaction. Money in paise, times UTC ms. Throws
/// DatabaseError.
class ShopRepository
{
public:
    explicit ShopRepository(Database &db) : m_db(db) {}

    /// Adds the shops row of a new account: active, no details, no credit.
    void insertBlank(qint64 accountId, const QString &createdBy, qint64 nowMs);
    /// Sets the shop's owner, mobile, circle and GSTIN.
    void updateDetails(qint64 accountId, const QString &owner, const QString &mobile, const QString &circleCode,
                       const QString &gstin, qint64 nowMs);
    /// Records who added the shop.
    void setCreatedBy(qint64 accountId, const QString &actor);
    /// Sets the credit limit (paise, >= 0; checked by ShopService).
    void setCreditLimit(qint64 accountId, Paise creditLimit, qint64 nowMs);
    /// Suspends (`reason` set) or resumes (`reason` empty) the shop; false when it already was in that state.
    bool setSuspended(qint64 accountId, const QString &reason, qint64 nowMs);
    /// Moves last_contact_at forward to `atMs` (never back).
    void touchContact(qint64 accountId, qint64 atMs);

    /// The state of the shop account ("active" / "suspended"); nullopt when the account is not a shop (the
    /// distributor). One indexed read (Authenticator, at key verification).
    std::optional<QString> state(qint64 accountId);
    /// The shop's credit limit in paise (0 for an account that is not a shop).
    Paise creditLimit(qint64 accountId);
    /// The account id of the shop called `name`, if it is a shop.
    std::optional<qint64> idByName(const QString &name);

    /// One page of shops matching `query`, with the live balance and today's totals (IST day `istDay`, days since
    /// the epoch in IST) in one query; last_contact_at as stored.
    QList<Shop> list(const ShopListQuery &query, qint64 istDay);
    /// How many shops match `query` (its paging ignored).
    qint64 count(const ShopListQuery &query);
    /// The shop with this account id, as list() reads it.
    std::optional<Shop> find(qint64 accountId, qint64 istDay);

private:
    Database &m_db;
};

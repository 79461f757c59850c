#pragma once

#include <QList>
#include <QString>

#include <optional>
#include <utility>

class Database;

/// The shop_settings table: one text value per (account, key). ShopSettings (name, address, threshold, idle
/// lock, circle) and SaleTerms (discount rates, sandbox settle delay) keep their keys here and give them
/// meaning; this class only reads and writes them. Every call throws DatabaseError on storage failure.
class ShopSettingsRepository
{
public:
    explicit ShopSettingsRepository(Database &db) : m_db(db) {}

    /// The value of `key`, nullopt when it was never set.
    std::optional<QString> value(qint64 accountId, const QString &key) const;
    /// Every (key, value) of the account, in no particular order.
    QList<std::pair<QString, QString>> all(qint64 accountId) const;
    /// Sets `key` to `value` (inserted or replaced); inside the caller's transaction, if any.
    void put(qint64 accountId, const QString &key, const QString &value);

private:
    Database &m_db;
};

#include "shopsettingsrepository.h"

#include "database.h"

std::optional<QString> ShopSettingsRepository::value(qint64 accountId, const QString &key) const
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT value FROM shop_settings WHERE account_id = ? AND key = ?"), {accountId, key});
    std::optional<QString> result;
    if (q.next())
        result = q.value(0).toString();
    q.finish();
    return result;
}

QList<std::pair<QString, QString>> ShopSettingsRepository::all(qint64 accountId) const
{
    QList<std::pair<QString, QString>> values;
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT key, value FROM shop_settings WHERE account_id = ?"), {accountId});
    while (q.next())
        values.append({q.value(0).toString(), q.value(1).toString()});
    q.finish();
    return values;
}

void ShopSettingsRepository::put(qint64 accountId, const QString &key, const QString &value)
{
    m_db.run(QStringLiteral("INSERT INTO shop_settings (account_id, key, value) VALUES (?, ?, ?)"
                            " ON CONFLICT (account_id, key) DO UPDATE SET value = excluded.value"),
             {accountId, key, textValue(value)});
}

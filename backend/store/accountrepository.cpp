#include "accountrepository.h"

#include "database.h"

namespace {

const QString kKeyColumns =
    QStringLiteral("k.key_id, k.account_id, a.name, k.name, k.secret_hash, k.mode, k.scope, k.created_at, k.revoked_at"
                   " FROM api_keys k JOIN accounts a ON a.id = k.account_id");

ApiKeyRow readKey(const QSqlQuery &q)
{
    ApiKeyRow key;
    key.keyId = q.value(0).toString();
    key.accountId = q.value(1).toLongLong();
    key.accountName = q.value(2).toString();
    key.name = q.value(3).toString();
    key.secretHash = q.value(4).toString();
    key.mode = ModeNames::modeFromString(q.value(5).toString()).value_or(Mode::Test);
    key.scope = ModeNames::scopeFromString(q.value(6).toString()).value_or(Scope::Pos);
    key.createdAtMs = q.value(7).toLongLong();
    if (!q.value(8).isNull())
        key.revokedAtMs = q.value(8).toLongLong();
    return key;
}

} // namespace

std::optional<qint64> AccountRepository::findAccount(const QString &name)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT id FROM accounts WHERE name = ?"), {name});
    std::optional<qint64> id;
    if (q.next())
        id = q.value(0).toLongLong();
    q.finish();
    return id;
}

qint64 AccountRepository::insertAccount(const QString &name, qint64 nowMs)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("INSERT INTO accounts (name, created_at) VALUES (?, ?) RETURNING id"), {name, nowMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("account insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

void AccountRepository::insertKey(const ApiKeyRow &key)
{
    m_db.run(QStringLiteral("INSERT INTO api_keys (key_id, account_id, name, secret_hash, mode, scope, created_at)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?)"),
             {key.keyId, key.accountId, key.name, key.secretHash, ModeNames::mode(key.mode),
              ModeNames::scope(key.scope), key.createdAtMs});
}

std::optional<ApiKeyRow> AccountRepository::findKey(const QString &keyId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kKeyColumns + QStringLiteral(" WHERE k.key_id = ?"), {keyId});
    std::optional<ApiKeyRow> key;
    if (q.next())
        key = readKey(q);
    q.finish();
    return key;
}

QList<ApiKeyRow> AccountRepository::listKeys()
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT ") + kKeyColumns + QStringLiteral(" ORDER BY k.created_at DESC, k.key_id"));
    QList<ApiKeyRow> keys;
    while (q.next())
        keys.append(readKey(q));
    q.finish();
    return keys;
}

bool AccountRepository::revokeKey(const QString &keyId, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL"), {nowMs, keyId});
    const bool revoked = q.numRowsAffected() > 0;
    if (revoked)
        bumpKeysVersion();
    return revoked;
}

void AccountRepository::bumpKeysVersion()
{
    m_db.run(QStringLiteral("UPDATE state_versions SET version = version + 1 WHERE name = 'api_keys'"));
}

qint64 AccountRepository::keysVersion()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT version FROM state_versions WHERE name = 'api_keys'"));
    const qint64 version = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return version;
}

int AccountRepository::activeKeyCount()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL"));
    const int count = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return count;
}

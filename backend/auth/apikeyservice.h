#pragma once

#include "authcontext.h"
#include "entities/apikey.h"
#include "money.h"
#include "store/accountrepository.h"

#include <QList>
#include <QString>

class Clock;
class Database;
class WalletRepository;

/// A key just created: the only moment the secret exists outside the client.
struct CreatedKey
{
    QString keyId;  ///< "test_" or "live_" + 14 base62 characters
    QString secret; ///< 32 base62 characters (190 bits)
};

/// Creates, lists and revokes API keys (api-conventions.md, "Authentication"). The secret is
/// stored only as its SHA-256 hash. Creating the first key of an account name creates the
/// account and its wallets; a new account's test wallet opens with sandbox credit. A new account other than
/// defaultAccountName() (the distributor's own) is one of its shops (issue 30): it gets an active `shops` row.
class ApiKeyService
{
public:
    /// Sandbox credit of a new account's test wallet: ₹10,000.00.
    static constexpr Paise kOpeningTestCredit = 10'000 * 100;
    /// Account used when none is named.
    static QString defaultAccountName() { return QStringLiteral("shop"); }

    ApiKeyService(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// Creates a key in one transaction. Throws ApiError 400 for an empty or over-long name,
    /// DatabaseError on storage failure.
    CreatedKey create(const QString &accountName, const QString &keyName, Mode mode, Scope scope);
    /// create() inside the caller's open WriteTransaction (ShopService adds a shop and its first key in one
    /// transaction, issue 30). `accountName` and `keyName` must already be trimmed and valid.
    CreatedKey createInTransaction(const QString &accountName, const QString &keyName, Mode mode, Scope scope);
    /// Every key, newest first (hashes included; never secrets).
    QList<ApiKeyRow> list();
    /// The key with this id, revoked or not.
    std::optional<ApiKeyRow> find(const QString &keyId);
    /// Revokes a key; false if no active key has this id.
    bool revoke(const QString &keyId);

    /// The `api_key` entity of a stored key (no secret).
    static ApiKey toEntity(const ApiKeyRow &key);
    /// SHA-256 of the secret, lower-case hex.
    static QString hashSecret(const QString &secret);
    /// `count` characters of [0-9A-Za-z] from the system CSPRNG, without modulo bias.
    static QString randomBase62(int count);

private:
    /// One attempt of create() for a trimmed name and account: the account (with its wallets) if missing, then the key.
    CreatedKey create(AccountRepository &accounts, WalletRepository &wallets, const QString &account,
                      const QString &name, Mode mode, Scope scope, qint64 now);

    /// The account (with its wallets and, for a shop, its shops row) if missing, then the key; in the caller's
    /// transaction.
    CreatedKey createKey(AccountRepository &accounts, WalletRepository &wallets, const QString &account,
                         const QString &name, Mode mode, Scope scope, qint64 now);

    Database &m_db;
    const Clock &m_clock;
};

#pragma once

#include "auth/authcontext.h"

#include <QList>
#include <QString>

#include <optional>

class Database;

/// A stored API key. The secret itself is never stored: only its SHA-256 hash (hex).
struct ApiKeyRow
{
    QString keyId;
    qint64 accountId = 0;
    QString accountName;
    QString name;
    QString secretHash;
    Mode mode = Mode::Test;
    Scope scope = Scope::Pos;
    qint64 createdAtMs = 0;
    std::optional<qint64> revokedAtMs;
};

/// Accounts (shops) and their API keys. Calls must run inside the caller's transaction where
/// they write. Throws DatabaseError.
class AccountRepository
{
public:
    explicit AccountRepository(Database &db) : m_db(db) {}

    /// The id of the account called `name`; nullopt if there is none.
    std::optional<qint64> findAccount(const QString &name);
    /// Creates the account; returns its id.
    qint64 insertAccount(const QString &name, qint64 nowMs);

    void insertKey(const ApiKeyRow &key);
    /// The key with this id, revoked or not.
    std::optional<ApiKeyRow> findKey(const QString &keyId);
    /// Every key, newest first.
    QList<ApiKeyRow> listKeys();
    /// Marks the key revoked and bumps keysVersion(); false (and no bump) if no active key has this id.
    bool revokeKey(const QString &keyId, qint64 nowMs);
    /// The `api_keys` version of state_versions: it grows with every revocation, so servers that cache
    /// verified keys notice another server's revocation (Authenticator, issue 16).
    qint64 keysVersion();
    /// Bumps keysVersion() so every server drops its cached key verifications within a second (a shop suspended or
    /// resumed, issue 30).
    void bumpKeysVersion();
    /// Number of keys not revoked.
    int activeKeyCount();

private:
    Database &m_db;
};

#include "apikeyservice.h"

#include "apierror.h"
#include "clock.h"
#include "shops/shoprepository.h"
#include "store/database.h"
#include "store/walletrepository.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

QString ApiKeyService::hashSecret(const QString &secret)
{
    return QString::fromLatin1(QCryptographicHash::hash(secret.toUtf8(), QCryptographicHash::Sha256).toHex());
}

ApiKey ApiKeyService::toEntity(const ApiKeyRow &key)
{
    ApiKey entity;
    entity.keyId = key.keyId;
    entity.name = key.name;
    entity.mode = ModeNames::mode(key.mode);
    entity.scope = ModeNames::scope(key.scope);
    entity.createdAt = QDateTime::fromMSecsSinceEpoch(key.createdAtMs, Qt::UTC);
    if (key.revokedAtMs)
        entity.revokedAt = QDateTime::fromMSecsSinceEpoch(*key.revokedAtMs, Qt::UTC);
    return entity;
}

QString ApiKeyService::randomBase62(int count)
{
    static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString text;
    text.reserve(count);
    QRandomGenerator *rng = QRandomGenerator::system();
    while (text.size() < count) {
        const quint32 byte = rng->generate() & 0xFF;
        if (byte < 248) // 248 = 4 × 62: rejecting the rest keeps every character equally likely
            text.append(QLatin1Char(kAlphabet[byte % 62]));
    }
    return text;
}

CreatedKey ApiKeyService::create(const QString &accountName, const QString &keyName, Mode mode, Scope scope)
{
    const QString name = keyName.trimmed();
    if (name.isEmpty() || name.size() > 80)
        throw ApiError::badRequest(QStringLiteral("name"), QStringLiteral("invalid_name"),
                                   QStringLiteral("the key name must be 1 to 80 characters"));
    const QString account = accountName.trimmed().isEmpty() ? defaultAccountName() : accountName.trimmed();
    const qint64 now = m_clock.nowMs();
    AccountRepository accounts(m_db);
    WalletRepository wallets(m_db);
    for (int attempt = 0;; ++attempt) {
        try {
            return create(accounts, wallets, account, name, mode, scope, now);
        } catch (const DatabaseError &e) {
            // Several servers starting at once on one fresh PostgreSQL database (issue 16) each create the
            // default account: the losers of that race run again and find the winner's account.
            if (!e.isUniqueViolation() || attempt > 0)
                throw;
        }
    }
}

CreatedKey ApiKeyService::create(AccountRepository &accounts, WalletRepository &wallets, const QString &account,
                                 const QString &name, Mode mode, Scope scope, qint64 now)
{
    WriteTransaction transaction(m_db);
    const CreatedKey created = createKey(accounts, wallets, account, name, mode, scope, now);
    transaction.commit();
    return created;
}

CreatedKey ApiKeyService::createInTransaction(const QString &accountName, const QString &keyName, Mode mode,
                                              Scope scope)
{
    AccountRepository accounts(m_db);
    WalletRepository wallets(m_db);
    return createKey(accounts, wallets, accountName, keyName, mode, scope, m_clock.nowMs());
}

CreatedKey ApiKeyService::createKey(AccountRepository &accounts, WalletRepository &wallets, const QString &account,
                                    const QString &name, Mode mode, Scope scope, qint64 now)
{
    std::optional<qint64> accountId = accounts.findAccount(account);
    if (!accountId) {
        accountId = accounts.insertAccount(account, now);
        wallets.ensureWallet(*accountId, Mode::Live);
        wallets.post(*accountId, Mode::Test, kOpeningTestCredit, LedgerKind::Opening, 0,
                     QStringLiteral("sandbox opening credit"), QStringLiteral("system"), now);
        if (account != defaultAccountName())
            ShopRepository(m_db).insertBlank(*accountId, QString(), now);
    }
    CreatedKey created{ModeNames::mode(mode) + QLatin1Char('_') + randomBase62(14), randomBase62(32)};
    ApiKeyRow row;
    row.keyId = created.keyId;
    row.accountId = *accountId;
    row.name = name;
    row.secretHash = hashSecret(created.secret);
    row.mode = mode;
    row.scope = scope;
    row.createdAtMs = now;
    accounts.insertKey(row);
    return created;
}

QList<ApiKeyRow> ApiKeyService::list()
{
    return AccountRepository(m_db).listKeys();
}

std::optional<ApiKeyRow> ApiKeyService::find(const QString &keyId)
{
    return AccountRepository(m_db).findKey(keyId);
}

bool ApiKeyService::revoke(const QString &keyId)
{
    AccountRepository accounts(m_db);
    WriteTransaction transaction(m_db);
    const bool revoked = accounts.revokeKey(keyId, m_clock.nowMs());
    transaction.commit();
    return revoked;
}

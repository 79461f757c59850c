#include "shopsetup.h"

#include "apierror.h"
#include "auditlog.h"
#include "clock.h"
#include "pinhasher.h"
#include "shopsettings.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "userrepository.h"
#include "userservice.h"

#include <QDir>
#include <QFile>
#include <QSettings>

#include <stdexcept>

namespace {

constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

} // namespace

ApiError ShopSetup::alreadySetUpError()
{
    return ApiError::conflict(QStringLiteral("already_set_up"),
                              QStringLiteral("this shop is already set up (it has an admin); sign in as that admin "
                                             "to add users instead"));
}

bool ShopSetup::isDone(Database &db)
{
    const std::optional<qint64> accountId = AccountRepository(db).findAccount(ApiKeyService::defaultAccountName());
    return accountId && UserRepository(db).adminCount(*accountId) > 0;
}

bool ShopSetup::writeTerminalConfig(const QString &dir, const CreatedKey &key, QString *error)
{
    const QString path = QDir(dir).filePath(terminalConfigFileName());
    {
        // Create the file owner-only before any secret goes in; QSettings keeps the mode.
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || !file.setPermissions(kOwnerOnly)) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
            return false;
        }
    }
    QSettings settings(path, QSettings::IniFormat);
    settings.beginGroup(QStringLiteral("server"));
    settings.setValue(QStringLiteral("key_id"), key.keyId);
    settings.setValue(QStringLiteral("key_secret"), key.secret);
    settings.endGroup();
    settings.sync();
    if (settings.status() != QSettings::NoError || !QFile::setPermissions(path, kOwnerOnly)) {
        *error = QStringLiteral("cannot write %1").arg(path);
        QFile::remove(path);
        return false;
    }
    return true;
}

CreatedKey ShopSetup::run(Database &db, const Clock &clock, const ShopSetupParams &params)
{
    ShopUpdate shop;
    shop.name = params.shopName.trimmed();
    shop.address = params.shopAddress.trimmed();
    try {
        ShopSettings::validate(shop);
    } catch (const ApiError &e) {
        throw ApiError::badRequest(QStringLiteral("shop_") + e.field(), e.reason(),
                                   QStringLiteral("shop ") + e.description());
    }
    const QString adminName = UserService::checkedName(params.adminName, QStringLiteral("admin_name"));
    UserService::checkPin(params.adminPin, UserRole::Admin, QStringLiteral("admin_pin"));
    if (isDone(db))
        throw alreadySetUpError();
    const QString pinHash = PinHasher::hash(params.adminPin);

    // ApiKeyService creates the account and its wallets in its own transaction; everything else
    // commits together below, or the key is revoked again.
    ApiKeyService keys(db, clock);
    const CreatedKey key = keys.create(ApiKeyService::defaultAccountName(), keyName(), Mode::Test, Scope::Pos);
    QString configPath;
    try {
        WriteTransaction transaction(db);
        const std::optional<qint64> accountId = AccountRepository(db).findAccount(ApiKeyService::defaultAccountName());
        if (!accountId)
            throw DatabaseError(QStringLiteral("the shop account vanished during setup"));
        UserRepository users(db);
        if (users.adminCount(*accountId) > 0)
            throw alreadySetUpError(); // another setup won the race
        ShopSettings::storeBasics(db, *accountId, shop);
        users.insert(*accountId, adminName, UserRole::Admin, pinHash, clock.nowMs());
        AuditLog(db, clock).record(*accountId, QStringLiteral("setup"), QStringLiteral("shop.setup"),
                                   QStringLiteral("set up shop \"%1\" with admin %2 and test pos key %3")
                                       .arg(*shop.name, adminName, key.keyId));
        if (!params.terminalConfigDir.isEmpty()) {
            QString error;
            if (!writeTerminalConfig(params.terminalConfigDir, key, &error))
                throw std::runtime_error(error.toStdString());
            configPath = QDir(params.terminalConfigDir).filePath(terminalConfigFileName());
        }
        transaction.commit();
    } catch (...) {
        if (!configPath.isEmpty())
            QFile::remove(configPath);
        try {
            keys.revoke(key.keyId);
        } catch (const DatabaseError &e) {
            qWarning("setup failed and its key %s could not be revoked: %s", qPrintable(key.keyId), e.what());
        }
        throw;
    }
    return key;
}

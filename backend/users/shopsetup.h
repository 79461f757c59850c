#pragma once

#include "apierror.h"
#include "auth/apikeyservice.h"

#include <QString>

class Clock;
class Database;

/// What the first-run screen or `rechargedesk setup` asks for.
struct ShopSetupParams
{
    QString shopName;    ///< 1-80 characters
    QString shopAddress; ///< optional, at most 300 characters
    QString adminName;   ///< 1-40 printable characters
    QString adminPin;    ///< 6-8 digits (an admin PIN)
    /// When not empty: the directory that receives terminal.ini with the new key (written before
    /// the setup commits, so a write failure leaves nothing set up).
    QString terminalConfigDir;
};

/// First-run setup of a shop (issue 5, item 1): the account "shop" with its wallets, the shop's
/// name and address, the first admin user, and a test **pos**-scope API key named "terminal" for
/// the terminal to call its own API with: admin power at the terminal comes from an admin's
/// signed-in session, checked by the server (issue 12). A terminal.ini of an older setup that
/// holds an admin key keeps working.
class ShopSetup
{
public:
    /// Name of the key setup creates.
    static QString keyName() { return QStringLiteral("terminal"); }
    /// File name of the terminal's key file inside the data directory.
    static QString terminalConfigFileName() { return QStringLiteral("terminal.ini"); }

    /// The 409 CONFLICT `already_set_up` that setup answers once isDone().
    static ApiError alreadySetUpError();
    /// True once account "shop" has an admin user (setup then refuses). Throws DatabaseError.
    static bool isDone(Database &db);
    /// Runs the setup and returns the new key (its secret exists only here and in terminal.ini).
    /// Throws ApiError 400 for invalid params (field names shop_name, shop_address, admin_name,
    /// admin_pin), 409 `already_set_up` when isDone(), 500-class std::runtime_error when
    /// terminal.ini cannot be written; DatabaseError on storage failure. On any failure no user
    /// or setting is stored, and a key already created is revoked.
    static CreatedKey run(Database &db, const Clock &clock, const ShopSetupParams &params);
    /// Writes <dir>/terminal.ini (QSettings IniFormat, [server] key_id, key_secret) readable by
    /// the owner only (0600). False with *error set on failure.
    static bool writeTerminalConfig(const QString &dir, const CreatedKey &key, QString *error);
};

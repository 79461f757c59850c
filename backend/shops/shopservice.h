#pragma once

#include "auth/apikeyservice.h"
#include "entities/page.h"
#include "entities/shop.h"
#include "entities/shopstatement.h"
#include "money.h"
#include "users/auditlog.h"

#include <QByteArray>
#include <QDate>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

class Clock;
class ContactTracker;
class Database;
class OperatorCatalog;

/// What `POST /api/v1/shops` and `rechargedesk shops add` are given (issue 30, "Add a shop"). Text as typed: the
/// service trims and checks it.
struct NewShop
{
    QString name;          ///< the account's name: 2–60 characters, unique among accounts
    QString owner;         ///< 1–80 characters
    QString mobile;        ///< 10 digits starting 6–9; a "+91" or "0" prefix, spaces and dashes are dropped
    QString circleCode;    ///< an OperatorCatalog circle code ("DL", "MH", …)
    QString gstin;         ///< "" for none, else a valid GSTIN (Validators::isGstin)
    Paise creditLimit = 0; ///< paise, 0..ShopService::kMaxCreditLimit
};

/// A partial change of a shop's details (`PUT /api/v1/shops/{id}`): only the fields that are set change.
struct ShopChanges
{
    std::optional<QString> owner;
    std::optional<QString> mobile;
    std::optional<QString> circleCode;
    std::optional<QString> gstin; ///< "" removes it
    bool isEmpty() const { return !owner && !mobile && !circleCode && !gstin; }
};

/// One list query of GET /api/v1/shops (`rechargedesk shops list`).
struct ShopListQuery
{
    QString search;                        ///< case-insensitive "contains" on name, owner, mobile, gstin; "" = all
    QString state;                         ///< "active", "suspended" or "" for both
    QString sort = QStringLiteral("name"); ///< name | balance | sales | success_rate | last_contact | state
    bool descending = false;
    int limit = 100;   ///< 1..ShopService::kMaxListLimit
    qint64 offset = 0; ///< rows skipped (the cursor)
};

/// A top-up of a shop's live wallet by the distributor (`POST /api/v1/shops/{id}/topups`).
struct ShopTopup
{
    Paise amount = 0;  ///< paise; whole rupees 1..WalletService::kMaxTopup
    QString method;    ///< "cash", "upi" or "bank"
    QString reference; ///< required for upi/bank (1–64 printable characters); optional for cash
    QString note;      ///< at most 200 characters
};

/// A key made for a shop: the key's summary, its secret (shown once) and the lines the shop runs to connect.
struct ShopKey
{
    ApiKeyRow key;
    QString secret;
    QStringList connect; ///< ShopService::connectLines()
};

/// What adding a shop answers: the shop and its first live pos key.
struct AddedShop
{
    Shop shop;
    ShopKey key;
};

/// The distributor's shops (issue 30, "Shops"): every account other than the server's own (`shop`,
/// ApiKeyService::defaultAccountName()) is a shop. Adds shops (with their first live pos key), lists them with their
/// live balance and today's sales, changes their details, tops up their live wallet, sets their credit limit and
/// margins, suspends and resumes them, manages their keys and writes their statements. Every change is audited on the
/// distributor's account with `actor`. Usable on the server thread and from the command line (app/shopscommand.cpp)
/// with just a Database. Throws ApiError for bad input (400 naming the field), 404 `shop_not_found` for an id that
/// is not a shop, 409 as documented; DatabaseError on storage failure.
class ShopService
{
public:
    static constexpr Paise kMaxCreditLimit = 1'000'000LL * 100; ///< ₹10,00,000
    static constexpr int kMaxListLimit = 5'000;
    static constexpr int kDefaultListLimit = 100;
    static constexpr int kMaxStatementLimit = 5'000;
    static constexpr int kDefaultStatementLimit = 1'000;
    static constexpr int kMaxStatementDays = 366;
    static constexpr int kMaxReason = 200; ///< characters of a suspension reason
    static constexpr int kMaxNote = 200;   ///< characters of a top-up note

    /// `contacts` (optional) adds this server's in-memory last contacts to what list() and show() answer.
    ShopService(Database &db, const Clock &clock, const OperatorCatalog &catalog, ContactTracker *contacts = nullptr);

    /// Adds a shop: its account, wallets, shops row and a first live pos key (named "pos"), in one transaction;
    /// audit `shop.add`. 400 for a bad field (invalid_name, invalid_owner, invalid_mobile, invalid_circle_code,
    /// invalid_gstin, credit_limit_out_of_range), 409 `shop_exists` when an account has the name. `baseUrl` is the
    /// API base the shop connects to ("https://host:8443/api/v1"; "" leaves a placeholder in the connect lines).
    AddedShop add(const NewShop &shop, const QString &actor, const QString &baseUrl);
    /// One page of shops with live balance and today's sales, in one query (+ the count). 400 for an unknown
    /// sort/state or a limit out of 1..kMaxListLimit.
    Page<Shop> list(const ShopListQuery &query);
    /// Every shop matching `query` (its limit and offset ignored), for the CLI and exports.
    qint64 count(const ShopListQuery &query);
    /// The shop with this account id; 404 `shop_not_found`.
    Shop show(qint64 shopId);
    /// The shop, its margins and its keys (GET /api/v1/shops/{id}); 404 `shop_not_found`.
    ShopDetail detail(qint64 shopId);
    /// The account id of the shop called `name` (the CLI names shops); 404 `shop_not_found`.
    qint64 idByName(const QString &name);
    /// Changes the shop's details (validated as add()); 400 `nothing_to_update` for no field. Audit `shop.update`.
    Shop update(qint64 shopId, const ShopChanges &changes, const QString &actor);
    /// Credits the shop's live wallet: ledger row kind topup, note "top-up by UPI, ref 4242…: note", actor `actor`;
    /// audit `shop.topup`. 400 invalid_amount / amount_out_of_range / invalid_method / invalid_reference /
    /// invalid_note.
    Shop topup(qint64 shopId, const ShopTopup &topup, const QString &actor);
    /// Sets how far below zero the shop's live wallet may go (paise, 0..kMaxCreditLimit; 400
    /// `credit_limit_out_of_range`). Audit `shop.credit_limit` "₹a → ₹b".
    Shop setCreditLimit(qint64 shopId, Paise creditLimit, const QString &actor);
    /// The shop's discount per operator code in basis points (every operator; the catalogue default where unset).
    QMap<QString, int> margins(qint64 shopId);
    /// Stores the rates named (SaleTerms' validation: 400 naming `discount_basis_points.<CODE>`); audit
    /// `shop.margins`. Returns every rate as margins().
    QMap<QString, int> setMargins(qint64 shopId, const QMap<QString, qint64> &basisPoints, const QString &actor);
    /// Suspends the shop (reason 1–200 characters, 400 `invalid_reason`; 409 `shop_suspended` when it is); its keys
    /// answer 403 account_suspended within a second on every server (the keys version is bumped). Audit.
    Shop suspend(qint64 shopId, const QString &reason, const QString &actor);
    /// Resumes a suspended shop (409 `shop_not_suspended`). Audit.
    Shop resume(qint64 shopId, const QString &actor);
    /// Every key of the shop, newest first.
    QList<ApiKeyRow> keys(qint64 shopId);
    /// A new pos key of the shop (`mode` live or test; name 1–80). Audit `shop.key_create`.
    ShopKey createKey(qint64 shopId, const QString &name, Mode mode, const QString &actor, const QString &baseUrl);
    /// A new key like `keyId` (same name, mode, scope pos), then `keyId` revoked; 404 `key_not_found` for a key
    /// that is not the shop's or already revoked. Audit `shop.key_rotate`.
    ShopKey rotateKey(qint64 shopId, const QString &keyId, const QString &actor, const QString &baseUrl);
    /// Revokes the shop's key; 404 `key_not_found` when it is not the shop's or already revoked. Audit.
    ApiKeyRow revokeKey(qint64 shopId, const QString &keyId, const QString &actor);
    /// The shop's live statement for the IST days from..to inclusive (at most kMaxStatementDays, from <= to: 400
    /// `invalid_date_range`), `limit` lines from `offset` (1..kMaxStatementLimit).
    ShopStatement statement(qint64 shopId, const QDate &from, const QDate &to, int limit, qint64 offset);
    /// The statement's every line as CSV (RFC 4180, a header row, the opening row first and the closing row last).
    QByteArray statementCsv(qint64 shopId, const QDate &from, const QDate &to);

    /// The lines a shop runs to connect to this distributor with `key`: write the secret to secret.txt, then
    /// `rechargedesk upstream set --url <baseUrl> --key-id … --key-secret-file secret.txt`.
    static QStringList connectLines(const QString &baseUrl, const QString &keyId, const QString &secret);

private:
    /// 400 for an unknown sort or state, a limit out of range or a negative offset.
    static void checkListQuery(const ShopListQuery &query);
    /// 400 `invalid_date_range` unless from <= to, both valid, at most kMaxStatementDays.
    static void checkRange(const QDate &from, const QDate &to);
    /// The shop's key `keyId`, active; 404 `key_not_found` otherwise.
    ApiKeyRow activeKey(qint64 shopId, const QString &keyId);
    /// The key as answered: its row, its secret, the connect lines.
    ShopKey shopKey(const CreatedKey &created, const QString &baseUrl);
    /// An audit entry on the distributor's account (none while it does not exist yet).
    void recordAudit(const QString &actor, const QString &action, const QString &detail);
    /// Today's IST day number (days since the epoch, IST), as daily_totals keys it.
    qint64 istDay() const;
    /// The later of the stored last contact and this server's memory of it.
    void withContact(Shop &shop) const;

    Database &m_db;
    const Clock &m_clock;
    const OperatorCatalog &m_catalog;
    ContactTracker *m_contacts;
    AuditLog m_audit;
};

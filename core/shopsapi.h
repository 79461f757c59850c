#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/shop.h"
#include "entities/shopstatement.h"

#include <QDate>
#include <QMap>
#include <QStringList>
#include <QUrlQuery>

/// A shop's key as the server reveals it once (POST /api/v1/shops, POST …/keys, POST …/keys/{key_id}/rotate): its id,
/// secret, mode and scope, and the lines the shop runs to connect to this server (`rechargedesk upstream set --url
/// <base>/api/v1 --key-id … --key-secret-file secret.txt`).
struct IssuedShopKey
{
    QString keyId;
    QString secret;
    QString mode;  ///< "live" or "test"
    QString scope; ///< "pos"
    QStringList connect;

    /// Reads {key {key_id, key_secret, mode, scope, …}, connect [lines]} (the key may also be the object itself);
    /// nullopt with *error naming the missing field.
    static std::optional<IssuedShopKey> fromJson(const QJsonObject &json, QString *error);
};

/// The answer to POST /api/v1/shops: {entity "shop_created", shop {Shop}, key {…}, connect [lines]}.
struct ShopCreated
{
    Shop shop;
    IssuedShopKey key;

    /// Reads the answer strictly (entity "shop_created"); nullopt with *error naming the problem.
    static std::optional<ShopCreated> fromJson(const QJsonObject &json, QString *error);
};

/// A shop's margins: its discount per operator code in basis points (100 bp = 1 %), as GET/PUT
/// /api/v1/shops/{id}/margins answer them ({discount_basis_points {CODE: bp}}).
struct ShopMargins
{
    QMap<QString, int> discountBasisPoints;

    /// Reads {discount_basis_points {CODE: bp}} (or {margins {…}}); nullopt with *error when missing or not numbers.
    static std::optional<ShopMargins> fromJson(const QJsonObject &json, QString *error);
};

/// Typed calls of the distributor's shops (issue 30, /api/v1/shops); owns their routes. Every call needs admin
/// authority of the distributor's own account (changes: live admin authority, an admin's session or a live admin
/// key); a shop's key is refused 403 `distributor_only`, an id that is not a shop 404 `shop_not_found`. Amounts in
/// paise, sent as whole rupees; dates are IST calendar days.
class ShopsApi
{
public:
    /// What a new shop is made of (POST /api/v1/shops, issue 30): name 2–60 characters (unique among the accounts),
    /// owner 1–80, mobile (10 digits starting 6–9; "+91"/"0" prefixes are stripped by the server), an OperatorCatalog
    /// circle code, and a GSTIN ("" = none; Validators::isGstin).
    struct NewShop
    {
        QString name;
        QString owner;
        QString mobile;
        QString circleCode;
        QString gstin;
    };

    /// How the list of shops is asked for (GET /api/v1/shops): `q` matches name, owner, mobile and GSTIN (contains, any
    /// case; "" = all), `state` "active"/"suspended" ("" = both), `sort` one of sortKeys() ("" = the server's order, by
    /// name), descending or not.
    struct ListQuery
    {
        QString q;
        QString state;
        QString sort;
        bool descending = false;

        /// The sort keys the server takes: name, balance, sales, success_rate, last_contact, state.
        static const QStringList &sortKeys();
        /// The query items (without limit and cursor), blanks left out.
        QUrlQuery toUrlQuery() const;
    };

    explicit ShopsApi(ApiClient &api) : m_api(api) {}

    /// The path of GET /api/v1/shops (query ListQuery::toUrlQuery(), limit ≤ 5000, cursor), for a collection
    /// model of Shop.
    static QString listPath();

    /// POST /api/v1/shops: adds a shop with a live pos key; answers it with the key's secret (once) and the connect
    /// lines (201). 400 with the field (`invalid_name`, `invalid_mobile`, `invalid_circle`, `invalid_gstin`…);
    /// 409 `shop_exists` when the name is an account's already.
    TypedCall<ShopCreated> add(const NewShop &shop) const;
    /// GET /api/v1/shops/{id}: the shop with its margins and keys.
    TypedCall<ShopDetail> get(qint64 id) const;
    /// POST /api/v1/shops/{id}/topups: credits the shop's live wallet with `amount` (paise, whole rupees: ₹1 .. the
    /// wallet's top-up limit) paid by `method` "cash", "upi" or "bank"; `reference` (1–64 printable characters) is
    /// required for upi and bank, optional for cash ("" = none); `note` ≤ 200 ("" = none). Answers the shop (201)
    /// with its new balance; the ledger row names the method and reference.
    TypedCall<Shop> topUp(qint64 id, Paise amount, const QString &method, const QString &reference,
                          const QString &note) const;
    /// PUT /api/v1/shops/{id}/credit-limit: how far below zero the shop's live wallet may go, `limit` in paise (whole
    /// rupees, ₹0 .. ₹10,00,000); answers the shop.
    TypedCall<Shop> setCreditLimit(qint64 id, Paise limit) const;
    /// GET /api/v1/shops/{id}/margins: the shop's discount per operator.
    TypedCall<ShopMargins> margins(qint64 id) const;
    /// PUT /api/v1/shops/{id}/margins: sets the discount of the operators in `basisPoints` (code → bp, validated as
    /// the shop's sale terms: 0..2000); answers every operator's discount.
    TypedCall<ShopMargins> setMargins(qint64 id, const QMap<QString, int> &basisPoints) const;
    /// POST /api/v1/shops/{id}/suspend: every call of the shop's keys is refused 403 `account_suspended` from now on
    /// (but its sales list, wallet and fund requests); `reason` 1–200 characters. 409 `shop_suspended`.
    TypedCall<Shop> suspend(qint64 id, const QString &reason) const;
    /// POST /api/v1/shops/{id}/resume: the shop's keys work again. 409 `shop_not_suspended`.
    TypedCall<Shop> resume(qint64 id) const;
    /// GET /api/v1/shops/{id}/keys: the shop's keys (no secrets), revoked ones included.
    TypedCall<Collection<ApiKey>> keys(qint64 id) const;
    /// POST /api/v1/shops/{id}/keys: a new pos key `name` of `mode` ("live" or "test") for the shop; its secret is
    /// answered once, with the connect lines (201).
    TypedCall<IssuedShopKey> createKey(qint64 id, const QString &name, const QString &mode) const;
    /// POST /api/v1/shops/{id}/keys/{key_id}/rotate: a new key in place of `keyId` (revoked now); the new secret once,
    /// with the connect lines (201). 404 `key_not_found` for another account's key.
    TypedCall<IssuedShopKey> rotateKey(qint64 id, const QString &keyId) const;
    /// DELETE /api/v1/shops/{id}/keys/{key_id}: revokes the key; answers it. 404 `key_not_found`.
    TypedCall<ApiKey> revokeKey(qint64 id, const QString &keyId) const;
    /// GET /api/v1/shops/{id}/statement: the statement of the IST days `from`..`to` (inclusive, at most 366 days:
    /// 400 `invalid_date_range`), up to `limit` lines (≤ 5000) from `cursor` ("" = the first).
    TypedCall<ShopStatement> statement(qint64 id, const QDate &from, const QDate &to, int limit = 1000,
                                       const QString &cursor = {}) const;
    /// GET /api/v1/shops/{id}/statement?format=csv: every line of the range as CSV (header row, opening and closing
    /// rows) in ApiResult::body. Not a JSON answer, hence the bare call.
    ApiCall *statementCsv(qint64 id, const QDate &from, const QDate &to) const;

private:
    ApiClient &m_api;
};

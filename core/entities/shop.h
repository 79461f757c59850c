#pragma once

#include "entities/apikey.h"
#include "money.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

/// A shop of the distributor (issue 30, "Shops"): an account on this server other than the server's own (`shop`, the
/// distributor), with its owner, mobile, circle, GSTIN, state, credit limit, live wallet balance and today's sales.
/// The `shop` entity of /api/v1/shops (our extension; docs/api/openapi.yaml, tag Shops). Money in paise ("₹" strings
/// on the wire, a negative balance "-₹12.00"); times are instants written as IST "YYYY-MM-DD HH:MM:SS".
struct Shop
{
    /// Today's live sales of the shop (the current IST day, from daily_totals).
    struct Today
    {
        qint64 sales = 0;   ///< every sale started today
        qint64 success = 0; ///< SUCCESS among them
        qint64 failed = 0;  ///< FAILED among them
        qint64 pending = 0; ///< still PENDING
        Paise sold = 0;     ///< the bill of the SUCCESS ones, paise

        /// success / (success + failed) × 100, one decimal; nullopt when no sale finished.
        std::optional<double> successRate() const;
        friend bool operator==(const Today &, const Today &) = default;
        /// {sales, success, failed, pending, success_rate (number|null), sold "₹"}.
        QJsonObject toJson() const;
        static std::optional<Today> fromJson(const QJsonObject &json, QString *error);
    };

    qint64 id = 0;           ///< the shop's account id
    QString name;            ///< the account's name
    QString owner;           ///< the person who runs it ("" for an account backfilled by migration 20)
    QString mobile;          ///< 10 digits, starting 6–9 ("" when unknown)
    QString circleCode;      ///< an OperatorCatalog circle code ("" when unknown)
    QString gstin;           ///< 15 characters, or "" for none
    QString state;           ///< "active" or "suspended" (states())
    QString suspendedReason; ///< "" (null) unless suspended
    QDateTime suspendedAt;   ///< invalid (null) unless suspended
    Paise balance = 0;       ///< the live wallet's balance, paise; negative while it uses its credit
    Paise creditLimit = 0;   ///< how far below zero the live wallet may go, paise (>= 0)
    Today today;
    QDateTime lastContactAt; ///< the last authenticated call of one of its keys; invalid (null) = never
    QDateTime createdAt;

    /// balance + creditLimit: what a live sale may still take, paise.
    Paise available() const { return balance + creditLimit; }
    bool isSuspended() const { return state == QLatin1String("suspended"); }

    /// The states on the wire: active, suspended.
    static const QStringList &states();

    /// The entity as the API writes it (nulls as documented above).
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field or an unknown state.
    static std::optional<Shop> fromJson(const QJsonObject &json, QString *error);
};

/// One shop as GET /api/v1/shops/{id} answers it (issue 30): the `shop` entity plus its margins (the discount per
/// operator code, basis points, as the shop's sale terms) and its keys (summaries, no secrets).
struct ShopDetail
{
    Shop shop;
    QMap<QString, int> discountBasisPoints; ///< operator code → basis points (100 bp = 1 %)
    QList<ApiKey> keys;                     ///< every key of the shop's account, revoked ones included

    /// Shop::toJson() plus margins {discount_basis_points {CODE: bp}} and keys [api_key].
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming the problem.
    static std::optional<ShopDetail> fromJson(const QJsonObject &json, QString *error);
};

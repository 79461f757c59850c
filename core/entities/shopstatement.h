#pragma once

#include "money.h"

#include <QDate>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

/// A shop's statement for a range of IST days (issue 30, "Per shop … a statement"): the live wallet's balance at
/// the start of `from` (00:00 IST), every ledger row up to the end of `to` (23:59:59.999 IST) with its running
/// balance, the totals per kind and the closing balance (opening + every line; on a range through today it equals
/// the live wallet's balance). The `shop_statement` entity of GET /api/v1/shops/{id}/statement (our extension;
/// docs/api/openapi.yaml, tag Shops). Money in paise, signed as in the ledger (sales negative).
struct ShopStatement
{
    /// One ledger row of the statement.
    struct Line
    {
        qint64 id = 0;            ///< the wallet_ledger id
        QDateTime at;             ///< when the row was written
        QString kind;             ///< one of ShopStatement::kinds()
        Paise amount = 0;         ///< signed: credits > 0, sales < 0
        Paise balance = 0;        ///< the running balance after this line
        qint64 transactionId = 0; ///< the sale it belongs to; 0 (null) for none
        QString number;           ///< the sale's number ("" for none)
        QString operatorCode;     ///< the sale's operator ("" for none)
        QString reference;        ///< the top-up's reference / UTR, or the sale's reference_id ("" for none)
        QString note;
        QString actor;

        friend bool operator==(const Line &, const Line &) = default;
        /// {id, at, kind, amount, balance, transaction_id|null, number, operator_code, reference, note, actor}.
        QJsonObject toJson() const;
        static std::optional<Line> fromJson(const QJsonObject &json, QString *error);
    };

    /// The sums of the lines per kind, paise, signed as in the ledger.
    struct Totals
    {
        Paise topups = 0;
        Paise sales = 0;
        Paise refunds = 0;
        Paise reversals = 0;
        Paise fundRequests = 0;
        Paise other = 0;

        Paise sum() const { return topups + sales + refunds + reversals + fundRequests + other; }
        /// Adds `amount` to the total of `kind` (one of ShopStatement::kinds()).
        void add(const QString &kind, Paise amount);
        friend bool operator==(const Totals &, const Totals &) = default;
        /// {topups, sales, refunds, reversals, fund_requests, other}, each "₹".
        QJsonObject toJson() const;
        static std::optional<Totals> fromJson(const QJsonObject &json, QString *error);
    };

    qint64 shopId = 0;
    QString name;
    QString owner;
    QString mobile;
    QString gstin;
    QDate from;           ///< first IST day, inclusive
    QDate to;             ///< last IST day, inclusive
    Paise opening = 0;    ///< the balance before `from` 00:00 IST
    Paise closing = 0;    ///< opening + every line of the range
    Totals totals;        ///< over every line of the range (not only this page)
    qint64 lineCount = 0; ///< every line of the range (not only this page)
    QList<Line> lines;    ///< this page's lines, oldest first
    QString nextCursor;   ///< the cursor of the next page; "" (null) on the last

    /// The line kinds on the wire: topup, fund_request, sale, refund, reversal, other.
    static const QStringList &kinds();

    /// The entity as the API writes it.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<ShopStatement> fromJson(const QJsonObject &json, QString *error);
};

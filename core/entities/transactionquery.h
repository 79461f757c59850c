#pragma once

#include <QDate>
#include <QString>
#include <QUrlQuery>

/// The filter of GET /api/v1/transactions and its /summary (api-conventions.md "Beyond the
/// spec"), as a client asks it: an IST date range (both days inclusive) or an IST instant to
/// start from, type, operator code, status, free text (transaction id, or a prefix of number /
/// reference id), the upstream state ("unknown": live sales still unknown at the upstream,
/// issue 11), the tender (issue 28), the server-side order, and for a listing the page size and the cursor of the
/// previous page. Empty strings, invalid dates and zero mean "any" / the server's default.
struct TransactionQuery
{
    /// The server's `sort` values.
    enum class Sort
    {
        Newest,
        Oldest,
        AmountHigh,
        AmountLow
    };
    QDate from;
    QDate to;
    qint64 sinceMs = 0;   ///< UTC ms; sent as the IST `from` instant when `from` is not set
    QString type;         ///< MOBILE / VOUCHER / DTH
    QString operatorCode; ///< two-letter code
    QString status;       ///< SUCCESS / PENDING / FAILED
    QString text;
    QString upstreamState; ///< "unknown" (queued, sent or unknown at the upstream), "attention" or empty
    QString tender;        ///< issue 28: "cash", "upi", "none" (sales without a tender) or empty
    Sort sort = Sort::Newest;
    int limit = 0;  ///< rows of a page, 1-200; 0: the server's default (50); not sent to /summary
    QString cursor; ///< next_cursor of the previous page; empty for the first page

    /// The query string of the filter, with limit and cursor when set.
    QUrlQuery toQuery() const;
    /// The `sort` value of `sort` ("newest", "oldest", "amount_desc", "amount_asc").
    static QString sortName(Sort sort);
    bool operator==(const TransactionQuery &other) const = default;
};

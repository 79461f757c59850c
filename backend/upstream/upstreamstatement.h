#pragma once

#include "entities/transactionrecord.h"
#include "money.h"

#include <QByteArrayView>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

/// One data row of an upstream's statement as read (issue 26, "By the upstream's statement"). Every text is trimmed of
/// surrounding blanks; a column the statement does not have reads as empty.
struct StatementRow
{
    int line = 0;          ///< line of the file the row starts on (1: the header's first line)
    QString referenceId;   ///< our reference_id as the upstream keeps it (rd-<server id>-<transaction id>)
    QString transactionId; ///< the upstream's transaction id as written
    QString statusText;    ///< the status as written
    std::optional<TransactionStatus> status; ///< the status read from statusText; nullopt when the row is unreadable
    QString amountText;                      ///< the amount as written
    std::optional<Paise> amount;             ///< the bill amount in paise; nullopt when no amount is given
    QString date;                            ///< the date as written (kept for people, never interpreted)
    QString redeemCode;                      ///< a voucher's code as written
    /// Why the row cannot be used (an unknown status word, an amount that is no amount, neither a reference nor a
    /// transaction id); empty when it can.
    QString problem;

    /// The upstream's transaction id as a number when it is one (digits only), else 0.
    qint64 upstreamId() const;
};

/// The CSV statement an aggregator's dashboard exports, read by RFC 4180 (issue 26, "By the upstream's statement";
/// QtCore only): fields separated by commas, optionally in double quotes (a quote inside a quoted field doubled; a
/// quoted field may hold commas and line breaks), lines ended by CRLF, LF or CR, a UTF-8 byte order mark ignored, blank
/// lines (and rows whose every field is empty) skipped. The first line that is not blank is the header.
///
/// Columns are found by their header name with case, spaces and punctuation ignored (so "Ref. ID", "ref_id" and
/// "REF ID" are one name): the reference id (required; "reference id", "reference", "ref id", "client ref", "client
/// reference id", "partner ref", "your ref", …), the status (required; "status", "transaction status", "txn status"),
/// and when present the upstream's transaction id, the amount, the date and a voucher's redeem code. Other names are
/// mapped by hand with `columns` (field → header name, e.g. {"reference_id": "My Ref", "status": "State"}).
///
/// Status words (case, spaces and punctuation ignored): success, successful, completed, credited → SUCCESS; failed,
/// failure, refunded, reversed, rejected → FAILED; pending, processing, in progress, initiated → PENDING. A row with
/// any other status, an amount that is not rupees ("249", "249.50", "₹1,249.00", "Rs. 249", "INR 249"), or neither a
/// reference nor a transaction id is kept as unreadable (StatementRow::problem), never guessed at.
class UpstreamStatement
{
public:
    /// Most data rows a statement may have (a larger one is refused whole: split it).
    static constexpr int kMaxRows = 100'000;
    /// The fields a column may be mapped to (the keys of `columns`).
    static const QStringList &fieldNames();

    /// Reads `csv`. `columns` maps fields (fieldNames()) to header names, overriding the names looked for. Throws
    /// ApiError 400 naming the problem (field `csv`, or `columns` / `columns.<field>`): `not_utf8` (a UTF-16 file),
    /// `no_header` (nothing but blank lines), `unterminated_quote`, `no_reference_column` / `no_status_column` (the
    /// header names found are listed), `ambiguous_column` (two columns could be the same field), `column_not_found`
    /// and `unknown_column_field` (a bad mapping), `field_count` (a row with more or fewer fields than the header; its
    /// line is named), `too_many_rows` (over kMaxRows).
    static UpstreamStatement parse(QByteArrayView csv, const QMap<QString, QString> &columns = {});
    /// The command line's --columns text, "reference_id=My Ref,status=State", as a `columns` map. Throws ApiError 400
    /// (field `columns`, reason `bad_columns`) for a part without "=", an empty name or a field given twice.
    static QMap<QString, QString> columnsFromText(const QString &text);
    /// A status word of a statement (see the class comment); nullopt for any other.
    static std::optional<TransactionStatus> statusFromWord(const QString &word);
    /// An amount of a statement in paise (see the class comment); nullopt when it is not one.
    static std::optional<Paise> amountFromText(const QString &text);
    /// A header name or a status word without case, spaces and punctuation: "Ref. ID" → "refid".
    static QString normalized(const QString &name);

    /// The data rows, in the order of the file.
    const QList<StatementRow> &rows() const { return m_rows; }
    /// The header name each found field was read from (fieldNames() → header text); absent when none.
    const QMap<QString, QString> &columns() const { return m_columns; }

private:
    QList<StatementRow> m_rows;
    QMap<QString, QString> m_columns;
};

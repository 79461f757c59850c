#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// One row of an upstream's statement that a person must look at (issue 26, "By the upstream's statement"): a
/// mismatch (the statement and our sale differ: no money was moved), an unknown reference (no sale of ours) or an
/// unreadable row.
struct StatementLine
{
    /// Why a person must look, in general: the `kind` on the wire.
    enum class Kind
    {
        Mismatch,
        Unknown,
        Unreadable
    };

    Kind kind = Kind::Unreadable;
    qint64 row = 0;           ///< line of the statement file the row starts on (1: the header)
    QString referenceId;      ///< as the statement writes it; may be empty
    qint64 transactionId = 0; ///< our sale; 0 (null on the wire) when there is none
    QString statement;        ///< what the statement says, e.g. "SUCCESS ₹249.00"
    QString held;             ///< what we hold, e.g. "FAILED ₹249.00"; empty (null on the wire) for no sale of ours
    /// Why, as a stable snake_case word: status_differs, amount_differs, still_pending_there, voucher_code_missing,
    /// no_such_sale, unreadable_row.
    QString reason;
    QString description; ///< why, in words

    /// "mismatch", "unknown", "unreadable".
    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);

    /// {row, kind, reference_id, transaction_id (or null), statement, held (or null), reason, description}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with `*error` (when given) naming a missing or mistyped field.
    static std::optional<StatementLine> fromJson(const QJsonObject &json, QString *error);
};

/// What one statement run found, row by row: rows = matched + unknown + unreadable, and matched = settled + reversed +
/// mismatched + unchanged.
struct StatementCounts
{
    qint64 rows = 0;       ///< data rows read (blank lines and the header not counted)
    qint64 matched = 0;    ///< rows naming a sale of ours
    qint64 settled = 0;    ///< a sale waiting on the upstream ended now (FAILED refunded once)
    qint64 reversed = 0;   ///< FAILED for a sale we held SUCCESS: reversed now, refunded once
    qint64 mismatched = 0; ///< the statement and our sale differ (status or amount): left for a person
    qint64 unchanged = 0;  ///< nothing to do: the sale already is what the row says (or the row says PENDING)
    qint64 unknown = 0;    ///< rows of no sale of ours
    qint64 unreadable = 0; ///< rows that could not be read

    QJsonObject toJson() const;
    static std::optional<StatementCounts> fromJson(const QJsonObject &json, QString *error);
    bool operator==(const StatementCounts &) const = default;
};

/// One reconciliation of an upstream's statement as stored (the `statement_run` entity of POST and GET
/// /api/v1/upstreams/{name}/statements; issue 26, "By the upstream's statement").
struct StatementRun
{
    /// Most lines for a person kept with a run; linesTotal counts them all.
    static constexpr int kMaxLines = 1000;

    qint64 id = 0;
    QString upstream;       ///< the upstream's name ("default")
    qint64 createdAtMs = 0; ///< UTC ms; IST "YYYY-MM-DD HH:MM:SS" on the wire (`datetime`)
    QString actor;          ///< who ran it: "key:<key_id>", "user:<name>", "cli:<name>"
    QString fileName;       ///< the statement's file name as given
    StatementCounts counts;
    qint64 linesTotal = 0; ///< lines for a person found, also those beyond kMaxLines
    /// The lines for a person (at most kMaxLines, in the order of the file); only in the answers about one run.
    QList<StatementLine> lines;
    bool withLines = false; ///< whether `lines` is on the wire (one run) or not (a list of runs)

    /// {entity "statement_run", id, upstream, datetime, actor, file_name, counts, lines_total, lines (withLines)}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly (with or without `lines`); nullopt with `*error` (when given) naming a missing or
    /// mistyped field.
    static std::optional<StatementRun> fromJson(const QJsonObject &json, QString *error);
};

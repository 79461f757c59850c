#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// The "upstream" extension of a live sale's transaction record (issue 11, the upstream contract; OpenAPI
/// `UpstreamSale`): where the sale stands with the upstream distributor.
struct SaleUpstream
{
    /// Why the upstream refused or failed the sale (its reason in snake_case, else its code, else http_<status>).
    struct Error
    {
        QString code;
        QString description;
    };

    QString state;    ///< queued, sent, unknown, pending, settled or refused
    QString upstream; ///< the name of the upstream it is (or was last) sent to
    /// An upstream that definitely refused or failed the sale before it moved to the next one.
    struct Attempt
    {
        QString upstream;
        QString referenceId;
        QString outcome; ///< "refused" or "FAILED"
        Error error;     ///< its words
    };
    QList<Attempt> tried;                ///< oldest first; empty when the first upstream ended it
    QString referenceId;                 ///< the reference_id this shop sent to the upstream
    std::optional<qint64> transactionId; ///< the upstream's transaction id, once known
    qint64 attempts = 0;
    std::optional<Error> error; ///< null when the upstream did not refuse or fail the sale
    /// Still PENDING longer than `serve --upstream-attention-after-s`: a person should look (Needs attention).
    bool attention = false;
    /// Sent to an upstream that did not promise an idempotent reference_id: never sent again, never polled.
    bool sendOnce = false;
    /// Who ended the sale by hand (POST /transactions/{id}/resolve), why and when (UTC ms; IST on the wire).
    struct Resolution
    {
        QString by;
        QString note;
        qint64 atMs = 0;
    };
    std::optional<Resolution> resolution; ///< null unless a person ended the sale
    /// The upstream reported FAILED after it had reported SUCCESS (a reversal, refunded once): how and when.
    struct Reversal
    {
        QString source; ///< "webhook" or "statement"
        qint64 atMs = 0;
    };
    std::optional<Reversal> reversal; ///< null unless the upstream reversed the sale
    /// The upstream reported a final status that differs from ours and cannot be applied by itself (SUCCESS for a
    /// sale we hold FAILED: applying it would debit again): left for a person.
    struct Mismatch
    {
        QString reported; ///< what the upstream reported, e.g. "SUCCESS"
        QString source;   ///< "webhook" or "statement"
        qint64 atMs = 0;
    };
    std::optional<Mismatch> mismatch; ///< null unless such a report came

    /// Decodes the object strictly; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<SaleUpstream> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
    /// The `resolution` member: null, or {"by", "note", "at" (IST "YYYY-MM-DD HH:MM:SS")}.
    QJsonValue resolutionJson() const;
    /// The `tried` member: [{"upstream", "reference_id", "outcome", "error": {"code", "description"}}].
    QJsonArray triedJson() const;
    /// The `reversal` member: null, or {"source", "at" (IST)}.
    QJsonValue reversalJson() const;
    /// The `mismatch` member: null, or {"reported", "source", "at" (IST)}.
    QJsonValue mismatchJson() const;
};

#pragma once

#include <QJsonObject>
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

    QString state;                       ///< queued, sent, unknown, pending, settled or refused
    QString referenceId;                 ///< the reference_id this shop sent to the upstream
    std::optional<qint64> transactionId; ///< the upstream's transaction id, once known
    qint64 attempts = 0;
    std::optional<Error> error; ///< null when the upstream did not refuse or fail the sale

    /// Decodes the object strictly; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<SaleUpstream> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

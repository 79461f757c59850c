#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

/// The spec's webhook body (api-v1.md, "Events") for `record`: {"data": {"entity": "webhook", "webhook_event",
/// "webhook_password", "payload": record}}.
inline QJsonObject specWebhookBody(const QString &event, const QString &password, const QJsonObject &record)
{
    return {{QStringLiteral("data"), QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook")},
                                                 {QStringLiteral("webhook_event"), event},
                                                 {QStringLiteral("webhook_password"), password},
                                                 {QStringLiteral("payload"), record}}}};
}

/// A mobile recharge's webhook as an upstream would post it, with only what a receiver matches on: the reference_id,
/// the upstream's transaction_id and the status. Serialized compactly.
inline QByteArray mobileWebhookBody(const QString &password, const QString &referenceId, const QString &status,
                                    qint64 upstreamTransactionId)
{
    const QJsonObject record{{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
                             {QStringLiteral("transaction_id"), upstreamTransactionId},
                             {QStringLiteral("transaction_status"), status},
                             {QStringLiteral("reference_id"), referenceId}};
    return QJsonDocument(specWebhookBody(QStringLiteral("event.mobile_recharge"), password, record))
        .toJson(QJsonDocument::Compact);
}

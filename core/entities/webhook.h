#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

/// The webhook endpoint of one mode (the `webhook_endpoint` entity of GET/PUT /api/v1/webhook-endpoint and
/// POST /api/v1/webhook-endpoint/rotate-secret, api-conventions.md "Webhooks"). Times are IST.
struct WebhookEndpointInfo
{
    QString mode; ///< "test" or "live"
    QString url;  ///< where events go (the built-in inbox's address when builtinInbox)
    bool builtinInbox = false;
    QString webhookPassword;
    bool enabled = true;
    std::optional<QString> disabledReason;            ///< set exactly while !enabled
    std::optional<QDateTime> previousSecretExpiresAt; ///< while a rotated-out secret still signs
    QDateTime createdAt;
    QDateTime updatedAt;
    std::optional<QString> secret; ///< the signing secret, only in the answer that made it; shown once

    static std::optional<WebhookEndpointInfo> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// An event queued for the endpoint (the `webhook_event` entity: answer of POST /api/v1/webhook-endpoint/test and
/// POST /api/v1/webhook-deliveries/{id}/redeliver, both 202). `status` is "pending", "delivered" or "failed".
struct WebhookEventInfo
{
    qint64 id = 0;
    QString webhookId; ///< the webhook-id header of its deliveries
    QString webhookEvent;
    std::optional<qint64> transactionId;
    QString status;
    qint64 attempts = 0;
    std::optional<QDateTime> nextAttemptAt; ///< while pending

    static std::optional<WebhookEventInfo> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// One delivery attempt of an event (the `webhook_delivery` entity of GET /api/v1/webhook-deliveries).
struct WebhookDelivery
{
    qint64 id = 0;
    qint64 eventId = 0;
    QString webhookId;
    QString webhookEvent;
    std::optional<qint64> transactionId;
    qint64 attempt = 0;
    QDateTime datetime;
    QString url;
    std::optional<qint64> httpStatus; ///< nullopt when no HTTP answer came
    qint64 latencyMs = 0;
    bool success = false;
    std::optional<QString> error;
    QString eventStatus; ///< the event's state now: "pending", "delivered" or "failed"
    std::optional<QDateTime> nextAttemptAt;

    static std::optional<WebhookDelivery> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// An event the built-in inbox received (the `webhook_inbox_message` entity of GET /api/v1/webhook-inbox), once
/// per webhook-id with how many times it arrived.
struct WebhookInboxMessage
{
    qint64 id = 0;
    QString webhookId;
    QString webhookEvent;
    std::optional<qint64> transactionId;
    QDateTime receivedAt;
    qint64 deliveries = 0;
    QJsonObject body;

    static std::optional<WebhookInboxMessage> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// The inbox's answer to a delivery (the `webhook_receipt` entity of POST /hooks/inbox).
struct WebhookReceipt
{
    qint64 id = 0;
    QString webhookId;
    bool duplicate = false;

    static std::optional<WebhookReceipt> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

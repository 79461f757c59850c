#include "webhookendpointrepository.h"

#include "store/database.h"

namespace {

const QString kColumns = QStringLiteral(
    "SELECT account_id, mode, url, builtin_inbox, password, secret, previous_secret, previous_secret_expires_at,"
    " disabled_at, disabled_reason, created_at, updated_at FROM webhook_endpoints");

WebhookEndpoint readEndpoint(const QSqlQuery &q)
{
    WebhookEndpoint e;
    e.accountId = q.value(0).toLongLong();
    e.mode = ModeNames::modeFromString(q.value(1).toString()).value_or(Mode::Test);
    e.url = q.value(2).toString();
    e.builtinInbox = q.value(3).toInt() != 0;
    e.password = q.value(4).toString();
    e.secret = q.value(5).toString();
    e.previousSecret = q.value(6).toString();
    e.previousSecretExpiresAtMs = q.value(7).toLongLong();
    if (!q.value(8).isNull())
        e.disabledAtMs = q.value(8).toLongLong();
    e.disabledReason = q.value(9).toString();
    e.createdAtMs = q.value(10).toLongLong();
    e.updatedAtMs = q.value(11).toLongLong();
    return e;
}

} // namespace

QStringList WebhookEndpoint::signingSecrets(qint64 nowMs) const
{
    QStringList secrets{secret};
    if (!previousSecret.isEmpty() && previousSecretExpiresAtMs > nowMs)
        secrets.append(previousSecret);
    return secrets;
}

std::optional<WebhookEndpoint> WebhookEndpointRepository::find(qint64 accountId, Mode mode)
{
    QSqlQuery &q =
        m_db.run(kColumns + QStringLiteral(" WHERE account_id = ? AND mode = ?"), {accountId, ModeNames::mode(mode)});
    std::optional<WebhookEndpoint> endpoint;
    if (q.next())
        endpoint = readEndpoint(q);
    q.finish();
    return endpoint;
}

QList<WebhookEndpoint> WebhookEndpointRepository::all()
{
    QSqlQuery &q = m_db.run(kColumns + QStringLiteral(" ORDER BY account_id, mode"));
    QList<WebhookEndpoint> endpoints;
    while (q.next())
        endpoints.append(readEndpoint(q));
    q.finish();
    return endpoints;
}

void WebhookEndpointRepository::save(const WebhookEndpoint &e)
{
    m_db.run(
        QStringLiteral(
            "INSERT INTO webhook_endpoints (account_id, mode, url, builtin_inbox, password, secret, previous_secret,"
            " previous_secret_expires_at, disabled_at, disabled_reason, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (account_id, mode) DO UPDATE SET url = excluded.url,"
            " builtin_inbox = excluded.builtin_inbox, password = excluded.password, secret = excluded.secret,"
            " previous_secret = excluded.previous_secret,"
            " previous_secret_expires_at = excluded.previous_secret_expires_at,"
            " disabled_at = excluded.disabled_at, disabled_reason = excluded.disabled_reason,"
            " updated_at = excluded.updated_at"),
        {e.accountId, ModeNames::mode(e.mode), e.url, e.builtinInbox ? 1 : 0, textValue(e.password), e.secret,
         textValue(e.previousSecret), e.previousSecretExpiresAtMs,
         e.disabledAtMs ? QVariant(*e.disabledAtMs) : QVariant(QMetaType::fromType<qlonglong>()),
         textValue(e.disabledReason), e.createdAtMs, e.updatedAtMs});
}

bool WebhookEndpointRepository::disable(qint64 accountId, Mode mode, const QString &reason, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?,"
                                           " updated_at = ? WHERE account_id = ? AND mode = ? AND disabled_at IS NULL"),
                            {nowMs, reason, nowMs, accountId, ModeNames::mode(mode)});
    return q.numRowsAffected() > 0;
}

#include "webhookendpointrepository.h"

#include "aadhaar/aadhaarvault.h"
#include "store/database.h"

#include <QLoggingCategory>

namespace {

Q_LOGGING_CATEGORY(lcEndpoints, "rechargedesk.webhooks")

const QString kColumns = QStringLiteral(
    "SELECT account_id, mode, url, builtin_inbox, password, secret, previous_secret, previous_secret_expires_at,"
    " disabled_at, disabled_reason, created_at, updated_at, password_sealed, secret_sealed, previous_secret_sealed"
    " FROM webhook_endpoints");

/// What a sealed value is bound to: its row and column, so a sealed secret copied to another
/// row or column does not open.
QByteArray associatedData(qint64 accountId, Mode mode, const char *column)
{
    return QByteArrayLiteral("webhook_endpoints:") + QByteArray::number(accountId) + ':' +
           ModeNames::mode(mode).toLatin1() + ':' + column;
}

} // namespace

WebhookEndpoint WebhookEndpointRepository::read(const QSqlQuery &q) const
{
    WebhookEndpoint e;
    e.accountId = q.value(0).toLongLong();
    e.mode = ModeNames::modeFromString(q.value(1).toString()).value_or(Mode::Test);
    e.url = q.value(2).toString();
    e.builtinInbox = q.value(3).toInt() != 0;
    // A sealed value wins; the clear column serves rows not sealed yet (sealClearSecrets()).
    const auto value = [&](int clear, int sealed, const char *column) {
        const QString sealedText = q.value(sealed).toString();
        return sealedText.isEmpty() ? q.value(clear).toString() : unseal(e.accountId, e.mode, column, sealedText);
    };
    e.password = value(4, 12, "password");
    e.secret = value(5, 13, "secret");
    e.previousSecret = value(6, 14, "previous_secret");
    e.previousSecretExpiresAtMs = q.value(7).toLongLong();
    if (!q.value(8).isNull())
        e.disabledAtMs = q.value(8).toLongLong();
    e.disabledReason = q.value(9).toString();
    e.createdAtMs = q.value(10).toLongLong();
    e.updatedAtMs = q.value(11).toLongLong();
    return e;
}

QString WebhookEndpointRepository::seal(const WebhookEndpoint &e, const char *column, const QString &value) const
{
    if (!m_vault || value.isEmpty())
        return QString();
    return QString::fromLatin1(m_vault->seal(value, associatedData(e.accountId, e.mode, column)).toBase64());
}

QString WebhookEndpointRepository::unseal(qint64 accountId, Mode mode, const char *column, const QString &sealed) const
{
    const std::optional<QString> value =
        m_vault ? m_vault->unseal(QByteArray::fromBase64(sealed.toLatin1()), associatedData(accountId, mode, column))
                : std::nullopt;
    if (!value) {
        qCWarning(lcEndpoints, "the %s of the %s webhook endpoint of account %lld does not open with this vault",
                  column, qPrintable(ModeNames::mode(mode)), static_cast<long long>(accountId));
        return QString();
    }
    return *value;
}

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
        endpoint = read(q);
    q.finish();
    return endpoint;
}

QList<WebhookEndpoint> WebhookEndpointRepository::all()
{
    QSqlQuery &q = m_db.run(kColumns + QStringLiteral(" ORDER BY account_id, mode"));
    QList<WebhookEndpoint> endpoints;
    while (q.next())
        endpoints.append(read(q));
    q.finish();
    return endpoints;
}

int WebhookEndpointRepository::sealedSecretCount()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints WHERE secret_sealed <> ''"));
    const int sealed = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return sealed;
}

void WebhookEndpointRepository::save(const WebhookEndpoint &e)
{
    const bool sealing = m_vault != nullptr;
    const auto clear = [sealing](const QString &value) { return textValue(sealing ? QString() : value); };
    m_db.run(
        QStringLiteral(
            "INSERT INTO webhook_endpoints (account_id, mode, url, builtin_inbox, password, secret, previous_secret,"
            " previous_secret_expires_at, disabled_at, disabled_reason, created_at, updated_at, password_sealed,"
            " secret_sealed, previous_secret_sealed)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (account_id, mode) DO UPDATE SET url = excluded.url,"
            " builtin_inbox = excluded.builtin_inbox, password = excluded.password, secret = excluded.secret,"
            " previous_secret = excluded.previous_secret,"
            " previous_secret_expires_at = excluded.previous_secret_expires_at,"
            " disabled_at = excluded.disabled_at, disabled_reason = excluded.disabled_reason,"
            " updated_at = excluded.updated_at, password_sealed = excluded.password_sealed,"
            " secret_sealed = excluded.secret_sealed, previous_secret_sealed = excluded.previous_secret_sealed"),
        {e.accountId, ModeNames::mode(e.mode), e.url, e.builtinInbox ? 1 : 0, clear(e.password), clear(e.secret),
         clear(e.previousSecret), e.previousSecretExpiresAtMs,
         e.disabledAtMs ? QVariant(*e.disabledAtMs) : QVariant(QMetaType::fromType<qlonglong>()),
         textValue(e.disabledReason), e.createdAtMs, e.updatedAtMs, textValue(seal(e, "password", e.password)),
         textValue(seal(e, "secret", e.secret)), textValue(seal(e, "previous_secret", e.previousSecret))});
}

int WebhookEndpointRepository::sealClearSecrets()
{
    if (!m_vault)
        return 0;
    QList<WebhookEndpoint> clear;
    QSqlQuery &q =
        m_db.run(kColumns + QStringLiteral(" WHERE secret <> '' OR previous_secret <> '' OR password <> ''"));
    while (q.next())
        clear.append(read(q));
    q.finish();
    for (const WebhookEndpoint &endpoint : std::as_const(clear))
        save(endpoint); // with the vault: sealed columns filled, clear ones blanked
    return int(clear.size());
}

bool WebhookEndpointRepository::disable(qint64 accountId, Mode mode, const QString &reason, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?,"
                                           " updated_at = ? WHERE account_id = ? AND mode = ? AND disabled_at IS NULL"),
                            {nowMs, reason, nowMs, accountId, ModeNames::mode(mode)});
    return q.numRowsAffected() > 0;
}

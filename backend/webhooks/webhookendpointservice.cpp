#include "webhookendpointservice.h"

#include "addressguard.h"
#include "apierror.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "store/database.h"
#include "webhooksigner.h"

namespace {

ApiError badUrl(const QString &reason, const QString &description)
{
    return ApiError::badRequest(QStringLiteral("url"), reason, description);
}

} // namespace

WebhookEndpointService::WebhookEndpointService(Database &db, const Clock &clock, const AadhaarVault *vault,
                                               std::function<QUrl()> inboxUrl)
    : m_db(db), m_clock(clock), m_vault(vault), m_inboxUrl(std::move(inboxUrl))
{}

QUrl WebhookEndpointService::effectiveUrl(const WebhookEndpoint &endpoint) const
{
    if (endpoint.builtinInbox) {
        const QUrl inbox = m_inboxUrl ? m_inboxUrl() : QUrl();
        if (inbox.isValid())
            return inbox;
    }
    return QUrl(endpoint.url);
}

std::optional<WebhookEndpointView> WebhookEndpointService::get(qint64 accountId, Mode mode)
{
    if (std::optional<WebhookEndpoint> found = WebhookEndpointRepository(m_db, m_vault).find(accountId, mode))
        return WebhookEndpointView{*found, effectiveUrl(*found), false, QString()};
    const QUrl inbox = m_inboxUrl ? m_inboxUrl() : QUrl();
    if (mode != Mode::Test || !inbox.isValid())
        return std::nullopt;
    const qint64 now = m_clock.nowMs();
    WebhookEndpoint endpoint;
    endpoint.accountId = accountId;
    endpoint.mode = mode;
    endpoint.url = inbox.toString();
    endpoint.builtinInbox = true;
    endpoint.password = ApiKeyService::randomBase62(24);
    endpoint.secret = WebhookSigner::newSecret();
    endpoint.createdAtMs = now;
    endpoint.updatedAtMs = now;
    WriteTransaction transaction(m_db);
    WebhookEndpointRepository endpoints(m_db, m_vault);
    if (std::optional<WebhookEndpoint> raced = endpoints.find(accountId, mode))
        return WebhookEndpointView{*raced, effectiveUrl(*raced), false, QString()};
    endpoints.save(endpoint);
    transaction.commit();
    return WebhookEndpointView{endpoint, inbox, true, endpoint.secret};
}

WebhookEndpointView WebhookEndpointService::set(qint64 accountId, Mode mode, const QString &url,
                                                const QString &password)
{
    validateUrl(mode, url);
    if (password.isEmpty() || password.size() > kMaxPasswordLength)
        throw ApiError::badRequest(
            QStringLiteral("webhook_password"), QStringLiteral("invalid_webhook_password"),
            QStringLiteral("webhook_password must be 1 to %1 characters").arg(kMaxPasswordLength));
    const qint64 now = m_clock.nowMs();
    WriteTransaction transaction(m_db);
    WebhookEndpointRepository endpoints(m_db, m_vault);
    const std::optional<WebhookEndpoint> existing = endpoints.find(accountId, mode);
    WebhookEndpoint endpoint = existing.value_or(WebhookEndpoint{});
    const bool freshSecret = !existing || existing->builtinInbox;
    if (!existing) {
        endpoint.accountId = accountId;
        endpoint.mode = mode;
        endpoint.createdAtMs = now;
    }
    if (freshSecret) {
        endpoint.secret = WebhookSigner::newSecret();
        endpoint.previousSecret.clear();
        endpoint.previousSecretExpiresAtMs = 0;
    }
    endpoint.url = url;
    endpoint.builtinInbox = false;
    endpoint.password = password;
    endpoint.disabledAtMs.reset();
    endpoint.disabledReason.clear();
    endpoint.updatedAtMs = now;
    endpoints.save(endpoint);
    transaction.commit();
    return WebhookEndpointView{endpoint, effectiveUrl(endpoint), !existing, freshSecret ? endpoint.secret : QString()};
}

WebhookEndpointView WebhookEndpointService::rotateSecret(qint64 accountId, Mode mode)
{
    if (!get(accountId, mode))
        throw ApiError::notFound(QStringLiteral("webhook_endpoint_not_configured"),
                                 QStringLiteral("no webhook endpoint is set for %1 mode").arg(ModeNames::mode(mode)));
    const qint64 now = m_clock.nowMs();
    WriteTransaction transaction(m_db);
    WebhookEndpointRepository endpoints(m_db, m_vault);
    std::optional<WebhookEndpoint> endpoint = endpoints.find(accountId, mode);
    if (!endpoint)
        throw ApiError::notFound(QStringLiteral("webhook_endpoint_not_configured"),
                                 QStringLiteral("no webhook endpoint is set for %1 mode").arg(ModeNames::mode(mode)));
    endpoint->previousSecret = endpoint->secret;
    endpoint->previousSecretExpiresAtMs = now + kRotationOverlapMs;
    endpoint->secret = WebhookSigner::newSecret();
    endpoint->updatedAtMs = now;
    endpoints.save(*endpoint);
    transaction.commit();
    return WebhookEndpointView{*endpoint, effectiveUrl(*endpoint), false, endpoint->secret};
}

void WebhookEndpointService::validateUrl(Mode mode, const QString &text)
{
    if (text.isEmpty() || text.size() > kMaxUrlLength)
        throw badUrl(QStringLiteral("invalid_url"),
                     QStringLiteral("url must be 1 to %1 characters").arg(kMaxUrlLength));
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) || url.host().isEmpty())
        throw badUrl(QStringLiteral("invalid_url"), QStringLiteral("url must be an absolute http:// or https:// URL"));
    if (!url.userInfo().isEmpty())
        throw badUrl(QStringLiteral("invalid_url"), QStringLiteral("url must not carry a user name or password"));
    if (!url.fragment().isEmpty())
        throw badUrl(QStringLiteral("invalid_url"), QStringLiteral("url must not carry a #fragment"));
    const QHostAddress literal(url.host());
    if (!literal.isNull()) {
        const QString reason =
            mode == Mode::Live ? AddressGuard::refusalReason(literal) : AddressGuard::testModeRefusalReason(literal);
        if (!reason.isEmpty())
            throw badUrl(QStringLiteral("forbidden_target"),
                         QStringLiteral("%1 webhooks may not go to a %2 address (%3)")
                             .arg(ModeNames::mode(mode), reason, url.host()));
    }
    if (mode == Mode::Live && url.host().compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        throw badUrl(QStringLiteral("forbidden_target"), QStringLiteral("live webhooks may not go to localhost"));
}

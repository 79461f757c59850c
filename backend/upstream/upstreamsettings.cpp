#include "upstreamsettings.h"

#include "apierror.h"
#include "operatorcatalog.h"
#include "webhooks/webhooksigner.h"

#include <QRegularExpression>

namespace {

bool printable(const QString &text)
{
    for (QChar c : text)
        if (c.unicode() < 0x21 || c.unicode() > 0x7e)
            return false;
    return true;
}

/// base_url and the webhook fields, checked as UpstreamSettings::checked() says; the credentials left empty.
UpstreamSettings checkedCommon(const QString &baseUrl, const QString &webhookPassword, const QString &webhookSecret)
{
    UpstreamSettings s;
    QString base = baseUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    const QUrl url(base, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
        url.host().isEmpty() || !url.path().endsWith(QLatin1String("/api/v1")) || url.hasQuery() || url.hasFragment() ||
        !url.userInfo().isEmpty())
        throw ApiError::badRequest(QStringLiteral("base_url"), QStringLiteral("invalid_base_url"),
                                   QStringLiteral("base_url must be an http:// or https:// address ending in /api/v1, "
                                                  "e.g. http://distributor.example:8080/api/v1"));
    s.baseUrl = base;
    if (webhookPassword.size() > 256)
        throw ApiError::badRequest(QStringLiteral("webhook_password"), QStringLiteral("invalid_webhook_password"),
                                   QStringLiteral("webhook_password must be at most 256 characters"));
    s.webhookPassword = webhookPassword;
    s.webhookSecret = webhookSecret.trimmed();
    if (!s.webhookSecret.isEmpty() && !WebhookSigner::secretKey(s.webhookSecret))
        throw ApiError::badRequest(QStringLiteral("webhook_secret"), QStringLiteral("invalid_webhook_secret"),
                                   QStringLiteral("webhook_secret must be the upstream's signing secret, whsec_ "
                                                  "followed by base64"));
    return s;
}

} // namespace

UpstreamSettings UpstreamSettings::checked(const QString &baseUrl, const QString &keyId, const QString &keySecret,
                                           const QString &webhookPassword, const QString &webhookSecret)
{
    UpstreamSettings s = checkedCommon(baseUrl, webhookPassword, webhookSecret);
    s.keyId = keyId.trimmed();
    if (s.keyId.isEmpty() || s.keyId.size() > 128 || !printable(s.keyId))
        throw ApiError::badRequest(
            QStringLiteral("key_id"), QStringLiteral("invalid_key_id"),
            QStringLiteral("key_id must be the upstream key id (1 to 128 characters, no spaces)"));
    s.keySecret = keySecret.trimmed();
    if (s.keySecret.isEmpty() || s.keySecret.size() > 512 || !printable(s.keySecret))
        throw ApiError::badRequest(QStringLiteral("key_secret"), QStringLiteral("invalid_key_secret"),
                                   QStringLiteral("key_secret must be the upstream key secret (1 to 512 characters)"));
    return s;
}

UpstreamSettings UpstreamSettings::checkedCredential(const QString &baseUrl, const QString &credential,
                                                     const QString &webhookPassword, const QString &webhookSecret)
{
    UpstreamSettings s = checkedCommon(baseUrl, webhookPassword, webhookSecret);
    s.credential = credential.trimmed();
    if (s.credential.isEmpty() || s.credential.size() > 2048 || !printable(s.credential))
        throw ApiError::badRequest(QStringLiteral("credential"), QStringLiteral("invalid_credential"),
                                   QStringLiteral("credential must be the API key credential from the aggregator's "
                                                  "dashboard (1 to 2048 characters, no spaces)"));
    return s;
}

const QStringList &UpstreamSettings::serviceNames()
{
    static const QStringList names{QStringLiteral("mobile"), QStringLiteral("dth"), QStringLiteral("voucher"),
                                   QStringLiteral("aadhaar"), QStringLiteral("plans")};
    return names;
}

void UpstreamSettings::setRouting(const QString &newName, int newPriority, const QStringList &newServices,
                                  const QStringList &newOperators, bool isEnabled, const OperatorCatalog &catalog)
{
    static const QRegularExpression namePattern(QStringLiteral("^[a-z0-9_-]{1,32}$"));
    if (!namePattern.match(newName).hasMatch())
        throw ApiError::badRequest(QStringLiteral("name"), QStringLiteral("invalid_name"),
                                   QStringLiteral("name must be 1 to 32 lower-case letters, digits, _ or -"));
    if (newPriority < 0 || newPriority > 1000)
        throw ApiError::badRequest(QStringLiteral("priority"), QStringLiteral("invalid_priority"),
                                   QStringLiteral("priority must be a whole number from 0 (tried first) to 1000"));
    QStringList cleanServices;
    for (const QString &service : newServices) {
        const QString clean = service.trimmed().toLower();
        if (!serviceNames().contains(clean))
            throw ApiError::badRequest(QStringLiteral("services"), QStringLiteral("invalid_service"),
                                       QStringLiteral("services are among %1; \"%2\" is not")
                                           .arg(serviceNames().join(QStringLiteral(", ")), service));
        if (!cleanServices.contains(clean))
            cleanServices.append(clean);
    }
    QStringList cleanOperators;
    for (const QString &code : newOperators) {
        const QString clean = code.trimmed().toUpper();
        if (!catalog.findOperator(clean))
            throw ApiError::badRequest(QStringLiteral("operators"), QStringLiteral("invalid_operator"),
                                       QStringLiteral("operators are operator codes such as AT, VI, BS, RJ, SD, TS; "
                                                      "\"%1\" is not one")
                                           .arg(code));
        if (!cleanOperators.contains(clean))
            cleanOperators.append(clean);
    }
    name = newName;
    priority = newPriority;
    services = cleanServices;
    operators = cleanOperators;
    enabled = isEnabled;
}

bool UpstreamSettings::sells(const QString &service, const QString &operatorCode) const
{
    return enabled && (services.isEmpty() || services.contains(service)) &&
           (operators.isEmpty() || operatorCode.isEmpty() || operators.contains(operatorCode));
}

QUrl UpstreamSettings::url(const QString &path) const
{
    return QUrl(baseUrl + path);
}

QByteArray UpstreamSettings::authorization() const
{
    if (!credential.isEmpty())
        return "Basic " + credential.toLatin1();
    return "Basic " + (keyId + QLatin1Char(':') + keySecret).toUtf8().toBase64();
}

QString UpstreamSettings::credentialKind() const
{
    return credential.isEmpty() ? QStringLiteral("key_pair") : QStringLiteral("opaque");
}

QString UpstreamSettings::kind() const
{
    return offers == UpstreamOffers{} ? QStringLiteral("spec") : QStringLiteral("rechargedesk");
}

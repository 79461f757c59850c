#include "tlsinfo.h"

#include "entityfields.h"

std::optional<TlsInfo> TlsInfo::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("server TLS"));
    TlsInfo info;
    info.tls = in.boolean(u"tls");
    info.fingerprintSha256 = in.optionalString(u"fingerprint_sha256");
    if (in.ok() && info.tls && !info.fingerprintSha256)
        in.fail(u"fingerprint_sha256", QStringLiteral("is missing although tls is true"));
    if (!in.ok())
        return EntityFields::failed<TlsInfo>(in, error);
    return info;
}

QJsonObject TlsInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("tls"), tls},
                       {QStringLiteral("fingerprint_sha256"), EntityFields::stringOrNull(fingerprintSha256)}};
}

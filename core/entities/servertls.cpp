#include "entities/servertls.h"

#include "answerreader.h"

QJsonObject ServerTls::toJson() const
{
    return QJsonObject{
        {QStringLiteral("tls"), tls},
        {QStringLiteral("fingerprint_sha256"),
         fingerprint.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(fingerprint)},
    };
}

std::optional<ServerTls> ServerTls::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("server TLS"));
    ServerTls server;
    server.tls = in.boolean(u"tls");
    server.fingerprint = in.optionalString(u"fingerprint_sha256").value_or(QString());
    // Present always (null without TLS); a fingerprint whenever tls is true.
    if (in.ok() && server.tls && server.fingerprint.isEmpty())
        in.fail(u"fingerprint_sha256", QStringLiteral("is missing although tls is true"));
    else if (in.ok() && !json.contains(QLatin1String("fingerprint_sha256")))
        in.fail(u"fingerprint_sha256", QStringLiteral("is missing"));
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return server;
}

#include "entities/upstreaminfo.h"

#include "answerreader.h"
#include "clock.h"

#include <QJsonArray>

namespace {

QJsonValue timeOrNull(qint64 ms)
{
    return ms > 0 ? QJsonValue(IstTime::formatMs(ms)) : QJsonValue();
}

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue() : QJsonValue(text);
}

/// A time of the upstream contract ("times ISO 8601 IST"): the spec's "YYYY-MM-DD HH:MM:SS" (IST)
/// or ISO 8601 with a 'T' (an offset, else IST); invalid when it is neither.
QDateTime contractTime(const QString &text)
{
    if (!text.contains(QLatin1Char('T')))
        return IstTime::parse(text);
    QDateTime instant = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (instant.isValid() && instant.timeSpec() == Qt::LocalTime) // no offset given: IST
        instant = IstTime::at(instant.date(), instant.time());
    return instant;
}

/// A required time of the contract in UTC ms; 0 when the reader failed.
qint64 requiredTime(AnswerReader &in, QStringView field)
{
    const QString text = in.string(field);
    if (!in.ok())
        return 0;
    const QDateTime instant = contractTime(text);
    if (!instant.isValid())
        in.fail(field, QStringLiteral("is not a date and time (\"%1\")").arg(text));
    return instant.toMSecsSinceEpoch();
}

/// A time of the contract that may be null: UTC ms, 0 for null.
qint64 optionalTime(AnswerReader &in, QStringView field)
{
    const std::optional<QString> text = in.optionalString(field);
    if (!text)
        return 0;
    const QDateTime instant = contractTime(*text);
    if (!instant.isValid()) {
        in.fail(field, QStringLiteral("is not a date and time (\"%1\")").arg(*text));
        return 0;
    }
    return instant.toMSecsSinceEpoch();
}

/// A required array of strings; fails `in` when an element is not a string.
QStringList stringsOf(AnswerReader &in, QStringView field)
{
    QStringList values;
    for (const QJsonValue &value : in.array(field)) {
        if (!value.isString()) {
            in.fail(field, QStringLiteral("holds something that is not a string"));
            break;
        }
        values.append(value.toString());
    }
    return values;
}

template <class T> std::optional<T> finish(const AnswerReader &in, T value, QString *error)
{
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return value;
}

} // namespace

QJsonObject UpstreamOffers::toJson() const
{
    return QJsonObject{{QStringLiteral("idempotent_reference_id"), idempotentReferenceId},
                       {QStringLiteral("status_check"), statusCheck},
                       {QStringLiteral("balance"), balance},
                       {QStringLiteral("complaints"), complaints},
                       {QStringLiteral("number_lookup"), numberLookup},
                       {QStringLiteral("fund_requests"), fundRequests}};
}

UpstreamOffers UpstreamOffers::fromJson(const QJsonObject &json)
{
    const auto promised = [&json](const char *name) { return json.value(QLatin1String(name)).toBool(false); };
    UpstreamOffers offers;
    offers.idempotentReferenceId = promised("idempotent_reference_id");
    offers.statusCheck = promised("status_check");
    offers.balance = promised("balance");
    offers.complaints = promised("complaints");
    offers.numberLookup = promised("number_lookup");
    offers.fundRequests = promised("fund_requests");
    return offers;
}

QJsonObject UpstreamInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("priority"), priority},
                       {QStringLiteral("services"), QJsonArray::fromStringList(services)},
                       {QStringLiteral("operators"), QJsonArray::fromStringList(operators)},
                       {QStringLiteral("enabled"), enabled},
                       {QStringLiteral("configured"), configured},
                       {QStringLiteral("base_url"), configured ? QJsonValue(baseUrl) : QJsonValue()},
                       {QStringLiteral("key_id"), configured && !keyId.isEmpty() ? QJsonValue(keyId) : QJsonValue()},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("since"), timeOrNull(sinceMs)},
                       {QStringLiteral("last_contact"), timeOrNull(lastContactMs)},
                       {QStringLiteral("last_error"), textOrNull(lastError)},
                       {QStringLiteral("webhook_path"), webhookPath},
                       {QStringLiteral("unknown_sales"), unknownSales},
                       {QStringLiteral("kind"), textOrNull(kind)},
                       {QStringLiteral("credential"), textOrNull(credential)},
                       {QStringLiteral("offers"), offers.toJson()},
                       {QStringLiteral("attention_sales"), attentionSales},
                       {QStringLiteral("attention_after_s"), attentionAfterS}};
}

std::optional<UpstreamInfo> UpstreamInfo::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream"));
    UpstreamInfo info;
    if (json.contains(QStringLiteral("name"))) {
        info.name = in.string(u"name");
        info.priority = int(in.integer(u"priority"));
        info.services = stringsOf(in, u"services");
        info.operators = stringsOf(in, u"operators");
        info.enabled = in.boolean(u"enabled");
    }
    info.configured = in.boolean(u"configured");
    info.baseUrl = in.optionalString(u"base_url").value_or(QString());
    info.keyId = in.optionalString(u"key_id").value_or(QString());
    info.state = in.string(u"state");
    info.sinceMs = optionalTime(in, u"since");
    info.lastContactMs = optionalTime(in, u"last_contact");
    info.lastError = in.optionalString(u"last_error").value_or(QString());
    info.webhookPath = in.string(u"webhook_path");
    info.unknownSales = in.integer(u"unknown_sales");
    info.kind = in.optionalString(u"kind").value_or(QString());
    info.credential = in.optionalString(u"credential").value_or(QString());
    info.offers = UpstreamOffers::fromJson(json.value(QStringLiteral("offers")).toObject());
    info.attentionSales = in.integer(u"attention_sales");
    info.attentionAfterS = in.integer(u"attention_after_s");
    return finish(in, info, error);
}

QJsonObject UpstreamList::toJson() const
{
    QJsonArray array;
    for (const UpstreamInfo &info : items)
        array.append(info.toJson());
    return QJsonObject{{QStringLiteral("items"), array}};
}

std::optional<UpstreamList> UpstreamList::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstreams"));
    UpstreamList list;
    list.items = in.list<UpstreamInfo>(u"items", &UpstreamInfo::fromJson);
    return finish(in, list, error);
}

QJsonObject UpstreamCheck::toJson() const
{
    return QJsonObject{{QStringLiteral("ok"), ok},
                       {QStringLiteral("http_status"), httpStatus > 0 ? QJsonValue(httpStatus) : QJsonValue()},
                       {QStringLiteral("latency_ms"), latencyMs},
                       {QStringLiteral("message"), message}};
}

std::optional<UpstreamCheck> UpstreamCheck::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream check"));
    UpstreamCheck check;
    check.ok = in.boolean(u"ok");
    check.httpStatus = int(in.optionalInteger(u"http_status").value_or(0));
    check.latencyMs = in.integer(u"latency_ms");
    check.message = in.string(u"message");
    return finish(in, check, error);
}

QJsonObject UpstreamCall::toJson() const
{
    return QJsonObject{{QStringLiteral("at"), IstTime::formatMs(atMs)},
                       {QStringLiteral("method"), method},
                       {QStringLiteral("endpoint"), endpoint},
                       {QStringLiteral("http_status"), httpStatus > 0 ? QJsonValue(httpStatus) : QJsonValue()},
                       {QStringLiteral("latency_ms"), latencyMs},
                       {QStringLiteral("error"), textOrNull(error)},
                       {QStringLiteral("outcome"), outcome}};
}

std::optional<UpstreamCall> UpstreamCall::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream call"));
    UpstreamCall call;
    call.atMs = requiredTime(in, u"at");
    call.method = in.string(u"method");
    call.endpoint = in.string(u"endpoint");
    call.httpStatus = int(in.optionalInteger(u"http_status").value_or(0));
    call.latencyMs = in.integer(u"latency_ms");
    call.error = in.optionalString(u"error").value_or(QString());
    call.outcome = in.string(u"outcome");
    return finish(in, call, error);
}

QJsonObject UpstreamCallList::toJson() const
{
    QJsonArray array;
    for (const UpstreamCall &call : items)
        array.append(call.toJson());
    return QJsonObject{{QStringLiteral("items"), array}};
}

std::optional<UpstreamCallList> UpstreamCallList::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream calls"));
    UpstreamCallList list;
    list.items = in.list<UpstreamCall>(u"items", &UpstreamCall::fromJson);
    return finish(in, list, error);
}

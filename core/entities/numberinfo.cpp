#include "entities/numberinfo.h"

#include "answerreader.h"
#include "entities/entityfields.h"

namespace {

void writeSighting(QJsonObject &json, const NumberInfo::Sighting &s)
{
    json.insert(QStringLiteral("operator_code"), s.operatorCode);
    json.insert(QStringLiteral("circle_code"),
                s.circleCode.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s.circleCode));
    json.insert(QStringLiteral("last_sold_at"), EntityFields::dateTime(s.lastSoldAt));
    json.insert(QStringLiteral("count"), s.count);
    json.insert(QStringLiteral("source"), s.source);
}

NumberInfo::Sighting readSighting(AnswerReader &in)
{
    NumberInfo::Sighting s;
    s.operatorCode = in.string(u"operator_code");
    s.circleCode = in.optionalString(u"circle_code").value_or(QString());
    s.lastSoldAt = in.dateTime(u"last_sold_at");
    s.count = in.integer(u"count");
    s.source = EntityFields::oneOf(in, u"source", {u"shop", u"upstream"});
    return s;
}

} // namespace

QJsonObject NumberInfo::Sighting::toJson() const
{
    QJsonObject json;
    writeSighting(json, *this);
    return json;
}

std::optional<NumberInfo::Sighting> NumberInfo::Sighting::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("number sighting"));
    const Sighting s = readSighting(in);
    if (!in.ok())
        return EntityFields::failed<Sighting>(in, error);
    return s;
}

QJsonObject NumberInfo::toJson() const
{
    QJsonObject json{
        {QStringLiteral("entity"), QStringLiteral("number")},
        {QStringLiteral("phone_number"), phoneNumber},
        {QStringLiteral("upstream"), upstream ? QJsonValue(upstream->toJson()) : QJsonValue(QJsonValue::Null)}};
    writeSighting(json, best);
    return json;
}

std::optional<NumberInfo> NumberInfo::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("number"));
    EntityFields::expectEntity(in, u"number");
    NumberInfo info;
    info.phoneNumber = in.string(u"phone_number");
    info.best = readSighting(in);
    const QJsonValue upstream = json.value(QStringLiteral("upstream"));
    if (in.ok() && !upstream.isNull() && !upstream.isUndefined()) {
        QString why;
        info.upstream = upstream.isObject() ? Sighting::fromJson(upstream.toObject(), &why) : std::nullopt;
        if (!info.upstream)
            in.fail(u"upstream", why.isEmpty() ? QStringLiteral("is not an object or null") : why);
    }
    if (!in.ok())
        return EntityFields::failed<NumberInfo>(in, error);
    return info;
}

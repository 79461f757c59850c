#include "entityfields.h"

#include "clock.h"

void EntityFields::expectEntity(AnswerReader &in, QStringView expected)
{
    const QString entity = in.string(u"entity");
    if (in.ok() && entity != expected)
        in.fail(u"entity", QStringLiteral("is \"%1\", not \"%2\"").arg(entity, expected.toString()));
}

std::optional<QDateTime> EntityFields::optionalDateTime(AnswerReader &in, QStringView field)
{
    const std::optional<QString> text = in.optionalString(field);
    if (!text)
        return std::nullopt;
    const QDateTime instant = IstTime::parse(*text);
    if (!instant.isValid()) {
        in.fail(field, QStringLiteral("is not a date and time (\"%1\")").arg(*text));
        return std::nullopt;
    }
    return instant;
}

QString EntityFields::oneOf(AnswerReader &in, QStringView field, std::initializer_list<QStringView> allowed)
{
    const QString value = in.string(field);
    if (in.ok() && std::find(allowed.begin(), allowed.end(), QStringView(value)) == allowed.end())
        in.fail(field, QStringLiteral("has the unknown value \"%1\"").arg(value));
    return value;
}

QJsonValue EntityFields::dateTime(const QDateTime &instant)
{
    return IstTime::format(instant);
}

QJsonValue EntityFields::dateTimeOrNull(const std::optional<QDateTime> &instant)
{
    return instant ? dateTime(*instant) : QJsonValue(QJsonValue::Null);
}

QJsonValue EntityFields::stringOrNull(const std::optional<QString> &text)
{
    return text ? QJsonValue(*text) : QJsonValue(QJsonValue::Null);
}

QJsonValue EntityFields::integerOrNull(const std::optional<qint64> &number)
{
    return number ? QJsonValue(*number) : QJsonValue(QJsonValue::Null);
}

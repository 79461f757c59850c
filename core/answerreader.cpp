#include "answerreader.h"

#include "clock.h"

AnswerReader::AnswerReader(QJsonObject object, QString what) : m_object(std::move(object)), m_what(std::move(what))
{}

void AnswerReader::fail(QStringView field, const QString &problem)
{
    if (!ok())
        return;
    const QString text = QStringLiteral("field `%1` %2").arg(field.toString(), problem);
    m_error = m_what.isEmpty() ? text : QStringLiteral("%1: %2").arg(m_what, text);
}

void AnswerReader::wrongType(QStringView field, const char *expected)
{
    fail(field, QStringLiteral("is not %1").arg(QLatin1String(expected)));
}

std::optional<QJsonValue> AnswerReader::present(QStringView field, bool required)
{
    if (!ok())
        return std::nullopt;
    const QJsonValue value = m_object.value(field);
    if (value.isUndefined() || value.isNull()) {
        if (required)
            fail(field, QStringLiteral("is missing"));
        return std::nullopt;
    }
    return value;
}

QString AnswerReader::string(QStringView field)
{
    const std::optional<QJsonValue> value = present(field, true);
    if (value && !value->isString())
        wrongType(field, "a string");
    return ok() && value ? value->toString() : QString();
}

std::optional<QString> AnswerReader::optionalString(QStringView field)
{
    const std::optional<QJsonValue> value = present(field, false);
    if (!value)
        return std::nullopt;
    if (!value->isString()) {
        wrongType(field, "a string");
        return std::nullopt;
    }
    return value->toString();
}

std::optional<qint64> AnswerReader::optionalInteger(QStringView field)
{
    const std::optional<QJsonValue> value = present(field, false);
    if (!value)
        return std::nullopt;
    const double number = value->toDouble();
    if (!value->isDouble() || number != static_cast<double>(value->toInteger())) {
        wrongType(field, "an integer");
        return std::nullopt;
    }
    return value->toInteger();
}

qint64 AnswerReader::integer(QStringView field)
{
    if (!present(field, true))
        return 0;
    return optionalInteger(field).value_or(0);
}

bool AnswerReader::boolean(QStringView field)
{
    const std::optional<QJsonValue> value = present(field, true);
    if (value && !value->isBool())
        wrongType(field, "true or false");
    return ok() && value && value->toBool();
}

std::optional<Paise> AnswerReader::optionalMoney(QStringView field)
{
    const std::optional<QString> text = optionalString(field);
    if (!text)
        return std::nullopt;
    const std::optional<Paise> amount = Money::parse(*text);
    if (!amount)
        fail(field, QStringLiteral("is not an amount in the form ₹249.00 (\"%1\")").arg(*text));
    return amount;
}

Paise AnswerReader::money(QStringView field)
{
    if (!present(field, true))
        return 0;
    return optionalMoney(field).value_or(0);
}

QDateTime AnswerReader::dateTime(QStringView field)
{
    const QString text = string(field);
    if (!ok())
        return {};
    const QDateTime instant = IstTime::parse(text);
    if (!instant.isValid())
        fail(field, QStringLiteral("is not a date and time (\"%1\")").arg(text));
    return instant;
}

QJsonObject AnswerReader::object(QStringView field)
{
    const std::optional<QJsonValue> value = present(field, true);
    if (value && !value->isObject())
        wrongType(field, "an object");
    return ok() && value ? value->toObject() : QJsonObject();
}

QJsonArray AnswerReader::array(QStringView field)
{
    const std::optional<QJsonValue> value = present(field, true);
    if (value && !value->isArray())
        wrongType(field, "a list");
    return ok() && value ? value->toArray() : QJsonArray();
}

#pragma once

#include "answerreader.h"

#include <QDateTime>
#include <QJsonValue>

#include <optional>

/// Small pieces every entity codec of core/entities/ shares (issue 14): the `entity` constant check, IST datetimes
/// that may be null, and the writing side of optional values (null in the JSON, as api-v1.md writes them).
namespace EntityFields {

/// Reads `entity` and records an error in `in` unless it is `expected` ("user", "api_key", …).
void expectEntity(AnswerReader &in, QStringView expected);
/// An IST "YYYY-MM-DD HH:MM:SS" datetime, or nullopt when absent or null; anything else is an error in `in`.
std::optional<QDateTime> optionalDateTime(AnswerReader &in, QStringView field);
/// Reads a required string and records an error unless it is one of `allowed` (an enum of the spec).
QString oneOf(AnswerReader &in, QStringView field, std::initializer_list<QStringView> allowed);

/// The IST text of `instant` (IstTime::format).
QJsonValue dateTime(const QDateTime &instant);
/// The IST text of `instant`, or null.
QJsonValue dateTimeOrNull(const std::optional<QDateTime> &instant);
/// `text`, or null.
QJsonValue stringOrNull(const std::optional<QString> &text);
/// `number`, or null.
QJsonValue integerOrNull(const std::optional<qint64> &number);

/// Puts `error` into `*sink` (when given) and returns nullopt: the failure path of every fromJson.
template <class T> std::optional<T> failed(const AnswerReader &in, QString *sink)
{
    if (sink)
        *sink = in.error();
    return std::nullopt;
}

} // namespace EntityFields

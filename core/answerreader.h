#pragma once

#include "apierror.h"
#include "money.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

/// Reads the fields of a server answer strictly (issue 14): a field that is missing, or present
/// with the wrong JSON type, is an error naming the field, never a default zero or empty
/// string. The first problem is kept and later reads return empty values, so a codec reads
/// all its fields and checks ok() once at the end:
///
///     AnswerReader in(json, QStringLiteral("user"));
///     User user;
///     user.id = in.integer(u"id");
///     user.name = in.string(u"name");
///     if (!in.ok()) { *error = in.error(); return std::nullopt; }
///
/// Money follows the spec's money strings ("₹249.00", api-conventions.md "Names and money")
/// and is returned in paise; datetimes are the spec's IST "YYYY-MM-DD HH:MM:SS".
class AnswerReader
{
public:
    /// `what` names the object in error texts ("transaction page", "user"); may be empty.
    explicit AnswerReader(QJsonObject object, QString what = {});

    /// A required JSON string (may be empty).
    QString string(QStringView field);
    /// A JSON string, or nullopt when absent or null; any other type is an error.
    std::optional<QString> optionalString(QStringView field);
    /// A required JSON integer (a JSON number without a fraction).
    qint64 integer(QStringView field);
    /// A JSON integer, or nullopt when absent or null; any other type is an error.
    std::optional<qint64> optionalInteger(QStringView field);
    /// A required JSON boolean.
    bool boolean(QStringView field);
    /// A required money string in paise ("₹249.00" → 24900), by Money::parse.
    Paise money(QStringView field);
    /// A money string in paise, or nullopt when absent or null.
    std::optional<Paise> optionalMoney(QStringView field);
    /// A required IST datetime string; an invalid QDateTime only when ok() is false.
    QDateTime dateTime(QStringView field);
    /// A required JSON object.
    QJsonObject object(QStringView field);
    /// A required JSON array.
    QJsonArray array(QStringView field);

    /// Decodes a required array of objects with `decode(const QJsonObject &, QString *error)`
    /// (the shape of every entity's fromJson); the first bad element is the error.
    template <class T, class Decode> QList<T> list(QStringView field, Decode decode)
    {
        QList<T> items;
        const QJsonArray values = array(field);
        for (qsizetype i = 0; ok() && i < values.size(); ++i) {
            if (!values.at(i).isObject()) {
                fail(field, QStringLiteral("element %1 is not an object").arg(i));
                break;
            }
            QString why;
            std::optional<T> item = decode(values.at(i).toObject(), &why);
            if (!item) {
                fail(field, QStringLiteral("element %1: %2").arg(i).arg(why));
                break;
            }
            items.append(std::move(*item));
        }
        return items;
    }

    /// Records a problem found by the codec itself (an unknown enum value, say).
    void fail(QStringView field, const QString &problem);

    bool ok() const { return m_error.isEmpty(); }
    /// "user: field `name` is missing" — empty while ok().
    const QString &error() const { return m_error; }

private:
    /// The value of a field present and not null, or nullopt (recording "missing" when required).
    std::optional<QJsonValue> present(QStringView field, bool required);
    void wrongType(QStringView field, const char *expected);

    QJsonObject m_object;
    QString m_what;
    QString m_error;
};

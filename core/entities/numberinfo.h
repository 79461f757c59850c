#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

/// What is known of a phone number's operator and circle from the sales made to it (issue 29, "The operator and
/// circle from the number"): GET /api/v1/numbers/{phone_number}. Numbers move between operators (MNP), so a guess from
/// the number's series is not used: only SUCCESS mobile sales teach (a FAILED one — whatever the upstream's words,
/// "wrong operator" included — never does), and the latest such sale wins.
struct NumberInfo
{
    /// One source's answer.
    struct Sighting
    {
        QString operatorCode; ///< of the latest SUCCESS sale to the number
        QString circleCode;   ///< of the latest such sale that carried one; "" (null) when none did
        QDateTime lastSoldAt; ///< when that latest sale was made
        qint64 count = 0;     ///< SUCCESS mobile sales to the number
        QString source;       ///< "shop" (this server's sales of the caller's account) or "upstream"

        friend bool operator==(const Sighting &, const Sighting &) = default;
        /// {operator_code, circle_code|null, last_sold_at, count, source}.
        QJsonObject toJson() const;
        static std::optional<Sighting> fromJson(const QJsonObject &json, QString *error);
    };

    QString phoneNumber;
    /// The answer to use: this server's when it knows the number, else its upstream's.
    Sighting best;
    /// The RechargeDesk upstream's own answer when it gave one in time; nullopt otherwise (no such upstream, it does
    /// not know the number, or it did not answer within the lookup's short time limit).
    std::optional<Sighting> upstream;

    /// {entity "number", phone_number, operator_code, circle_code|null, last_sold_at, count, source,
    /// upstream: Sighting|null}: the best answer's fields at the top level.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<NumberInfo> fromJson(const QJsonObject &json, QString *error);
};

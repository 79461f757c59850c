#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

/// GET /api/v1/plans/catalogue (issue 13): the plan catalogue in force — its version, how many
/// plans and operator/circle pairs it holds, where it came from and when it was made.
struct PlanCatalogueSummary
{
    QString version;
    qint64 plans = 0;
    qint64 pairs = 0;
    QString source;       ///< "upstream <host[:port]>", "shipped with the program" or "imported"
    QString upstreamHost; ///< empty unless it came from `plans sync`
    QDateTime updatedAt;  ///< invalid when unknown ("" on the wire)

    /// {entity "plan_catalogue", catalogue_version, plans, pairs, source, upstream_host,
    /// updated_at (IST datetime or "")}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<PlanCatalogueSummary> fromJson(const QJsonObject &json, QString *error);
};

#include "entities/plancataloguesummary.h"

#include "answerreader.h"
#include "clock.h"

QJsonObject PlanCatalogueSummary::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("plan_catalogue")},
                       {QStringLiteral("catalogue_version"), version},
                       {QStringLiteral("plans"), plans},
                       {QStringLiteral("pairs"), pairs},
                       {QStringLiteral("source"), source},
                       {QStringLiteral("upstream_host"), upstreamHost},
                       {QStringLiteral("updated_at"), updatedAt.isValid() ? IstTime::format(updatedAt) : QString()}};
}

std::optional<PlanCatalogueSummary> PlanCatalogueSummary::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("plan catalogue"));
    PlanCatalogueSummary summary;
    summary.version = in.string(u"catalogue_version");
    summary.plans = in.integer(u"plans");
    summary.pairs = in.integer(u"pairs");
    summary.source = in.string(u"source");
    summary.upstreamHost = in.string(u"upstream_host");
    const QString updated = in.string(u"updated_at");
    if (in.ok() && !updated.isEmpty()) {
        summary.updatedAt = IstTime::parse(updated);
        if (!summary.updatedAt.isValid())
            in.fail(u"updated_at", QStringLiteral("is not a date and time (\"%1\")").arg(updated));
    }
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return summary;
}

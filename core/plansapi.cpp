#include "plansapi.h"

ApiCall *PlansApi::prepaidPlans(const QString &operatorCode, const QString &circleCode, const QByteArray &etag) const
{
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (!etag.isEmpty())
        headers.append({QByteArrayLiteral("If-None-Match"), etag});
    return m_api.post(
        QStringLiteral("/api/v1/plans/mobile/prepaid-plans"),
        QJsonObject{{QStringLiteral("operator_code"), operatorCode}, {QStringLiteral("circle_code"), circleCode}},
        headers);
}

TypedCall<PlanCatalogueSummary> PlansApi::catalogue() const
{
    return {m_api.get(QStringLiteral("/api/v1/plans/catalogue")), &PlanCatalogueSummary::fromJson};
}

ApiCall *PlansApi::logo(const QString &name) const
{
    QUrl url = m_api.baseUrl();
    url.setPath(QStringLiteral("/api/v1/plans/logos/") + name);
    return m_api.fetch(url);
}

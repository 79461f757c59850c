#include "planlogos.h"

#include "apiclient.h"
#include "plansapi.h"

#include <QPainter>
#include <QSvgRenderer>

PlanLogos::PlanLogos(ApiClient &api, QObject *parent) : QObject(parent), m_api(api)
{}

void PlanLogos::fetchFor(const QList<PlanItem> &plans, qreal devicePixelRatio)
{
    for (const PlanItem &plan : plans) {
        for (const PlanSubscription &subscription : plan.subscriptions) {
            const QString name = subscription.logo;
            if (name.isEmpty() || m_requested.contains(name))
                continue;
            m_requested.insert(name);
            ApiCall *call = PlansApi(m_api).logo(name);
            connect(call, &ApiCall::finished, this, [this, name, devicePixelRatio](const ApiResult &result) {
                if (result.httpStatus == 0) {
                    m_requested.remove(name); // unreachable: try again with the next category
                    return;
                }
                if (result.ok())
                    render(name, result.body, devicePixelRatio);
            });
        }
    }
}

void PlanLogos::render(const QString &name, const QByteArray &svg, qreal devicePixelRatio)
{
    QSvgRenderer renderer(svg);
    if (!renderer.isValid())
        return;
    const int size = PlanTableModel::kLogoSize;
    QPixmap pixmap(QSize(size, size) * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    renderer.render(&painter, QRectF(0, 0, size, size));
    painter.end();
    m_pixmaps.insert(name, pixmap);
    emit arrived(name);
}

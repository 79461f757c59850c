#pragma once

#include "plantablemodel.h"

#include <QHash>
#include <QObject>
#include <QPixmap>
#include <QSet>

class ApiClient;

/// The OTT logos of the Plans screen (api-v1.md "Subscription" `logo`): each file is fetched once
/// (GET /api/v1/plans/logos/<file>), rendered from SVG at PlanTableModel::kLogoSize and kept by name. A fetch that
/// got no HTTP answer is tried again with the next request for it; a logo that is not valid SVG stays absent.
class PlanLogos final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanLogos)

public:
    explicit PlanLogos(ApiClient &api, QObject *parent = nullptr);

    /// The rendered logos by file name (for PlanTableModel, which must not outlive this object).
    const QHash<QString, QPixmap> &pixmaps() const { return m_pixmaps; }
    /// Fetches the logos of `plans` not fetched yet, rendered for a screen of `devicePixelRatio`.
    void fetchFor(const QList<PlanItem> &plans, qreal devicePixelRatio);

signals:
    /// The logo `name` is now in pixmaps().
    void arrived(const QString &name);

private:
    void render(const QString &name, const QByteArray &svg, qreal devicePixelRatio);

    ApiClient &m_api;
    QHash<QString, QPixmap> m_pixmaps; ///< rendered logos by file name
    QSet<QString> m_requested;         ///< logo names fetched or being fetched (each is fetched once)
};

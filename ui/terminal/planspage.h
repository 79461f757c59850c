#pragma once

#include "plantablemodel.h"
#include "terminalcontext.h"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

#include <memory>

class PlanFilterProxy;
class PlanLogos;
struct PlanCatalogueSummary;

namespace Ui {
class PlansPage;
}

/// "Plans": the prepaid plans of a mobile operator in a circle (api-v1.md endpoint 4). Operator and circle pickers
/// (the circle is remembered in the terminal settings), one tab per category of the answer, a table of the plans
/// with OTT logos (GET /api/v1/plans/logos/<file>, each fetched once and rendered from SVG), a price-range and text
/// filter, and "Sell this plan" (button, or Enter on a row). Answers are cached per (operator, circle) with their
/// ETag: a cached pair shows at once and is revalidated with If-None-Match (304 keeps it).
///
/// The screen first opens on the shop's circle (TerminalContext::shopCircle(), else the circle used last). Whenever
/// it is shown while the Mobile recharge screen holds a whole number (TerminalContext::mobileSale()), it switches to
/// that number's operator and circle and says which number the plans are for. Search also matches prices ("299").
/// The layout is planspage.ui; PlanLogos fetches and renders the logos.
class PlansPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlansPage)

public:
    explicit PlansPage(TerminalContext &context, QWidget *parent = nullptr);
    ~PlansPage() override;

    /// Selects operator and circle (codes) and loads their plans; false if either code is unknown.
    bool selectPair(const QString &operatorCode, const QString &circleCode);
    QString operatorCode() const;
    QString circleCode() const;
    /// HTTP status of the latest plans answer (200, 304, an error status, 0 before any); for tests and diagnostics.
    int lastHttpStatus() const { return m_lastHttpStatus; }
    /// The model behind the table (the current category) and the filter in front of it.
    PlanTableModel *model() const { return m_model; }
    PlanFilterProxy *filter() const { return m_proxy; }

    /// The settings key of the remembered circle.
    static QString circleSettingsKey();
    /// The line under the pickers that says where the plans came from and when (GET /api/v1/plans/catalogue
    /// metadata, issue 13): "Plans from <host>, updated <date>" or "Plans shipped with the program, <date>",
    /// with a warning when `updated_at` is more than 7 days before `nowUtc`. Sets *stale accordingly.
    static QString sourceText(const PlanCatalogueSummary &catalogue, const QDateTime &nowUtc, bool *stale);

signals:
    /// The clerk chose a plan to sell: operator and circle codes and the plan (price, validity, benefits).
    void sellPlanRequested(const QString &operatorCode, const QString &circleCode, const PlanItem &plan);
    /// A plans answer (200 or 304) is on screen for this pair.
    void plansShown(const QString &operatorCode, const QString &circleCode);

protected:
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Asks for the catalogue's metadata and shows sourceText().
    void loadSource();

private:
    struct CachedPlans
    {
        QByteArray etag;
        QJsonObject data;
    };

    void load();
    /// Selects the operator and circle of the number being sold on the Mobile recharge screen; false if none.
    bool followMobileSale();
    void showPlans(const QJsonObject &data);
    void onCategoryChanged(int index);
    void onFiltersChanged();
    void onCurrentRowChanged();
    void onSellClicked();
    const PlanItem *currentPlan() const;
    void updateCount();

    TerminalContext &m_context;
    std::unique_ptr<Ui::PlansPage> m_ui; ///< the widgets of planspage.ui
    PlanLogos *m_logos;
    PlanTableModel *m_model;
    PlanFilterProxy *m_proxy;

    QList<PlanCategory> m_categories;
    QHash<QString, CachedPlans> m_cache; ///< by "operator/circle"
    QString m_shownKey;                  ///< the pair whose plans are on screen
    int m_generation = 0;
    int m_lastHttpStatus = 0;
    bool m_loadedOnce = false;
};

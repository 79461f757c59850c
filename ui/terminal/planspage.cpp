#include "planspage.h"

#include "apiclient.h"
#include "clock.h"
#include "planfilterproxy.h"
#include "plansapi.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTabBar>
#include <QTableView>
#include <QVBoxLayout>

namespace {

constexpr qint64 kStaleAfterDays = 7;
constexpr int kMaxPriceRupees = 10'000;

QString pairKey(const QString &operatorCode, const QString &circleCode)
{
    return operatorCode + QLatin1Char('/') + circleCode;
}

} // namespace

PlansPage::PlansPage(TerminalContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    setObjectName(QStringLiteral("page"));
    Look::set(this, "plansPage"); // its tables, tabs and pickers: style.qss

    auto *title = new QLabel(tr("Plans"), this);
    title->setObjectName(QStringLiteral("pageTitle"));

    m_operator = new QComboBox(this);
    m_operator->setObjectName(QStringLiteral("operatorCombo"));
    for (const OperatorInfo &info : m_context.catalog().operators(ProductKind::Mobile))
        m_operator->addItem(info.name, info.code);
    m_circle = new QComboBox(this);
    m_circle->setObjectName(QStringLiteral("circleCombo"));
    m_circle->setMaxVisibleItems(24);
    for (const CircleInfo &info : m_context.catalog().circles())
        m_circle->addItem(info.name, info.code);
    const int remembered = m_circle->findData(m_context.settings().value(circleSettingsKey()).toString());
    m_circle->setCurrentIndex(remembered >= 0 ? remembered : 0);
    m_operator->setMinimumContentsLength(8);
    m_operator->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_circle->setSizeAdjustPolicy(QComboBox::AdjustToContents); // whole names: "Uttar Pradesh West & Uttarakhand"
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("hint"));
    m_status->setWordWrap(true);
    m_forNumber = new QLabel(this);
    m_forNumber->setObjectName(QStringLiteral("plansForNumber"));
    Look::set(m_forNumber, "accent");
    m_forNumber->hide();

    m_minPrice = new QSpinBox(this);
    m_minPrice->setObjectName(QStringLiteral("minPrice"));
    m_maxPrice = new QSpinBox(this);
    m_maxPrice->setObjectName(QStringLiteral("maxPrice"));
    for (QSpinBox *spin : {m_minPrice, m_maxPrice}) {
        spin->setRange(0, kMaxPriceRupees);
        spin->setSingleStep(50);
        spin->setPrefix(QStringLiteral("₹"));
        spin->setSpecialValueText(tr("Any"));
        spin->setAccelerated(true);
        spin->setButtonSymbols(QAbstractSpinBox::NoButtons); // arrow keys and typing; no tiny arrows
        spin->setMinimumWidth(110);
    }
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("planSearch"));
    m_search->setPlaceholderText(tr("Search: price (299), data, validity, Netflix, Hotstar…"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);
    m_operator->installEventFilter(this);
    m_circle->installEventFilter(this);
    m_clearFilters = new QPushButton(tr("Clear filters"), this);
    m_clearFilters->setObjectName(QStringLiteral("clearFilters"));

    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("plansSource"));

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("plansError"));
    m_error->setWordWrap(true);
    m_error->hide();

    m_tabs = new QTabBar(this);
    m_tabs->setObjectName(QStringLiteral("categoryTabs"));
    m_tabs->setExpanding(false);
    m_tabs->setDrawBase(false);
    m_tabs->setUsesScrollButtons(true);

    m_model = new PlanTableModel(m_logos, this);
    m_proxy = new PlanFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->sort(PlanTableModel::AmountColumn, Qt::AscendingOrder);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTabKeyNavigation(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(PlanTableModel::kLogoSize + 16);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(PlanTableModel::BenefitsColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("planDetails"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setMinimumHeight(64);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("planCount"));
    m_sell = new QPushButton(tr("Sell this plan  ⏎"), this);
    m_sell->setObjectName(QStringLiteral("sellPlanButton"));
    m_sell->setEnabled(false);
    m_sell->setAutoDefault(true);
    m_sell->setMinimumWidth(200);

    auto *pickers = new QHBoxLayout;
    pickers->addWidget(new QLabel(tr("Operator"), this));
    pickers->addWidget(m_operator);
    pickers->addSpacing(12);
    pickers->addWidget(new QLabel(tr("Circle"), this));
    pickers->addWidget(m_circle);
    pickers->addSpacing(12);
    pickers->addWidget(m_status, 1);
    auto *filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Price from"), this));
    filters->addWidget(m_minPrice);
    filters->addWidget(new QLabel(tr("to"), this));
    filters->addWidget(m_maxPrice);
    filters->addSpacing(12);
    filters->addWidget(m_search, 1);
    filters->addWidget(m_clearFilters);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_details, 1);
    auto *sellColumn = new QVBoxLayout;
    sellColumn->addWidget(m_count, 0, Qt::AlignRight);
    sellColumn->addWidget(m_sell);
    bottom->addLayout(sellColumn);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addWidget(title);
    layout->addLayout(pickers);
    layout->addWidget(m_forNumber);
    layout->addWidget(m_source);
    layout->addLayout(filters);
    layout->addWidget(m_error);
    layout->addSpacing(4);
    layout->addWidget(m_tabs);
    layout->addWidget(m_table, 1);
    layout->addLayout(bottom);

    setTabOrder(m_operator, m_circle);
    setTabOrder(m_circle, m_minPrice);
    setTabOrder(m_minPrice, m_maxPrice);
    setTabOrder(m_maxPrice, m_search);
    setTabOrder(m_search, m_clearFilters);
    setTabOrder(m_clearFilters, m_tabs);
    setTabOrder(m_tabs, m_table);
    setTabOrder(m_table, m_sell);

    connect(m_operator, &QComboBox::currentIndexChanged, this, [this] { load(); });
    connect(m_circle, &QComboBox::currentIndexChanged, this, [this] {
        m_context.settings().setValue(circleSettingsKey(), circleCode());
        load();
    });
    connect(m_minPrice, &QSpinBox::valueChanged, this, &PlansPage::onFiltersChanged);
    connect(m_maxPrice, &QSpinBox::valueChanged, this, &PlansPage::onFiltersChanged);
    connect(m_search, &QLineEdit::textChanged, this, &PlansPage::onFiltersChanged);
    connect(m_search, &QLineEdit::returnPressed, m_table, qOverload<>(&QWidget::setFocus));
    connect(m_clearFilters, &QPushButton::clicked, this, [this] {
        m_minPrice->setValue(0);
        m_maxPrice->setValue(0);
        m_search->clear();
        m_search->setFocus();
    });
    connect(m_tabs, &QTabBar::currentChanged, this, &PlansPage::onCategoryChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PlansPage::onCurrentRowChanged);
    connect(m_table, &QTableView::activated, this, &PlansPage::onSellClicked);
    connect(m_sell, &QPushButton::clicked, this, &PlansPage::onSellClicked);
}

PlansPage::~PlansPage() = default;

QString PlansPage::circleSettingsKey()
{
    return QStringLiteral("circle");
}

QString PlansPage::operatorCode() const
{
    return m_operator->currentData().toString();
}

QString PlansPage::circleCode() const
{
    return m_circle->currentData().toString();
}

bool PlansPage::selectPair(const QString &operatorCode, const QString &circleCode)
{
    const int operatorIndex = m_operator->findData(operatorCode);
    const int circleIndex = m_circle->findData(circleCode);
    if (operatorIndex < 0 || circleIndex < 0)
        return false;
    const bool changed = operatorIndex != m_operator->currentIndex() || circleIndex != m_circle->currentIndex();
    {
        const QSignalBlocker blockOperator(m_operator);
        const QSignalBlocker blockCircle(m_circle);
        m_operator->setCurrentIndex(operatorIndex);
        m_circle->setCurrentIndex(circleIndex);
    }
    m_context.settings().setValue(circleSettingsKey(), circleCode);
    if (changed || !m_loadedOnce || m_shownKey != pairKey(operatorCode, circleCode))
        load();
    return true;
}

void PlansPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (followMobileSale() || m_loadedOnce)
        return;
    // The first opening: the shop's own circle (the circle used last when the shop has none).
    if (const int shopCircle = m_circle->findData(m_context.shopCircle()); shopCircle >= 0) {
        const QSignalBlocker block(m_circle);
        m_circle->setCurrentIndex(shopCircle);
    }
    load();
}

bool PlansPage::followMobileSale()
{
    const MobileSaleInProgress &sale = m_context.mobileSale();
    m_forNumber->setVisible(!sale.phoneNumber.isEmpty());
    if (sale.phoneNumber.isEmpty())
        return false;
    QString circle = sale.circleCode;
    if (circle.isEmpty())
        circle = m_loadedOnce || m_context.shopCircle().isEmpty() ? circleCode() : m_context.shopCircle();
    const QString operatorCode = sale.operatorCode.isEmpty() ? this->operatorCode() : sale.operatorCode;
    const OperatorInfo *info = m_context.catalog().findOperator(sale.operatorCode, ProductKind::Mobile);
    m_forNumber->setText(
        info ? tr("Plans for %1 (%2), the number on the Mobile recharge screen").arg(sale.phoneNumber, info->name)
             : tr("Plans for %1, the number on the Mobile recharge screen").arg(sale.phoneNumber));
    return selectPair(operatorCode, circle);
}

bool PlansPage::eventFilter(QObject *watched, QEvent *event)
{
    // Down from the search box goes to the plan list, so a sale needs no mouse.
    if (watched == m_search && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Down) {
        m_table->setFocus();
        return true;
    }
    // Enter on a picker goes to the plan list: operator letter, Enter, arrows, Enter sells.
    if ((watched == m_operator || watched == m_circle) && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_table->setFocus();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PlansPage::load()
{
    m_loadedOnce = true;
    const QString operatorCode = this->operatorCode();
    const QString circleCode = this->circleCode();
    const QString key = pairKey(operatorCode, circleCode);
    const int generation = ++m_generation;
    m_error->hide();
    loadSource();

    QByteArray etag;
    const auto cached = m_cache.constFind(key);
    if (cached != m_cache.cend()) {
        // Show the cached answer at once; the server confirms it (304) or sends the new one.
        if (m_shownKey != key) {
            m_shownKey = key;
            showPlans(cached->data);
        }
        etag = cached->etag;
    } else {
        m_shownKey.clear();
        showPlans(QJsonObject());
        m_status->setText(tr("Loading plans…"));
    }

    ApiCall *call = PlansApi(m_context.api()).prepaidPlans(operatorCode, circleCode, etag);
    connect(call, &ApiCall::finished, this, [this, generation, key, operatorCode, circleCode](const ApiResult &result) {
        if (generation != m_generation)
            return;
        m_lastHttpStatus = result.httpStatus;
        if (!result.ok()) {
            m_error->setText(tr("Could not load the plans: %1").arg(result.error->description()));
            m_error->show();
            if (m_shownKey != key)
                m_status->clear();
            return;
        }
        if (result.httpStatus != 304 || !m_cache.contains(key)) {
            m_cache.insert(key, CachedPlans{result.etag, result.data});
            m_shownKey = key;
            showPlans(result.data);
        }
        emit plansShown(operatorCode, circleCode);
    });
}

QString PlansPage::sourceText(const PlanCatalogueSummary &catalogue, const QDateTime &nowUtc, bool *stale)
{
    const QDateTime &updatedAt = catalogue.updatedAt;
    const QString date = updatedAt.isValid() ? IstTime::toIst(updatedAt).date().toString(QStringLiteral("d MMM yyyy"))
                                             : tr("date unknown");
    const QString &host = catalogue.upstreamHost;
    QString text;
    if (!host.isEmpty())
        text = tr("Plans from %1, updated %2").arg(host, date);
    else if (catalogue.source == QLatin1String("shipped with the program"))
        text = tr("Plans shipped with the program, %1").arg(date);
    else
        text = tr("Plans imported %1").arg(date);
    *stale = updatedAt.isValid() && updatedAt.daysTo(nowUtc) > kStaleAfterDays;
    if (*stale)
        text += tr(" — older than %1 days, prices may have changed").arg(kStaleAfterDays);
    return text;
}

void PlansPage::loadSource()
{
    PlansApi(m_context.api()).catalogue().then(this, [this](const Answer<PlanCatalogueSummary> &answer) {
        if (!answer.ok())
            return; // the plans answer shows what is wrong
        bool stale = false;
        m_source->setText(sourceText(*answer.value, m_context.clock().nowUtc(), &stale));
        Look::set(m_source, stale ? "warning" : "hint");
    });
}

void PlansPage::showPlans(const QJsonObject &data)
{
    const QString previousCategory =
        m_tabs->currentIndex() >= 0 ? m_tabs->tabData(m_tabs->currentIndex()).toString() : QString();
    QString problem;
    const std::optional<PrepaidPlans> plans =
        data.isEmpty() ? std::optional<PrepaidPlans>(PrepaidPlans()) : PrepaidPlans::fromJson(data, &problem);
    if (!plans) {
        m_error->setText(tr("Could not load the plans: %1").arg(AnswerDecoding::badAnswer(200, problem).description()));
        m_error->show();
    }
    m_categories = plans ? plans->categories : QList<PlanCategory>();
    int selected = 0;
    qsizetype total = 0;
    {
        const QSignalBlocker blocker(m_tabs);
        while (m_tabs->count() > 0)
            m_tabs->removeTab(0);
        for (qsizetype i = 0; i < m_categories.size(); ++i) {
            const PlanCategory &category = m_categories.at(i);
            const int tab = m_tabs->addTab(tr("%1 (%2)").arg(category.name).arg(category.items.size()));
            m_tabs->setTabData(tab, category.name);
            if (category.name == previousCategory)
                selected = tab;
            total += category.items.size();
        }
        if (m_tabs->count() > 0)
            m_tabs->setCurrentIndex(selected);
    }
    if (plans && !data.isEmpty()) {
        m_status->setText(tr("%1 in %2: %3 plans in %4 categories")
                              .arg(plans->operatorName, plans->circleName)
                              .arg(total)
                              .arg(m_categories.size()));
    }
    onCategoryChanged(m_tabs->currentIndex());
}

void PlansPage::onCategoryChanged(int index)
{
    m_model->setPlans(index >= 0 && index < m_categories.size() ? m_categories.at(index).items : QList<PlanItem>());
    requestLogos();
    if (m_proxy->rowCount() > 0)
        m_table->setCurrentIndex(m_proxy->index(0, 0));
    m_table->scrollToTop();
    onCurrentRowChanged();
    updateCount();
}

void PlansPage::onFiltersChanged()
{
    m_proxy->setPriceRange(m_minPrice->value(), m_maxPrice->value());
    m_proxy->setSearchText(m_search->text());
    if (!m_table->currentIndex().isValid() && m_proxy->rowCount() > 0)
        m_table->setCurrentIndex(m_proxy->index(0, 0));
    onCurrentRowChanged();
    updateCount();
}

void PlansPage::updateCount()
{
    m_count->setText(tr("%1 of %2 plans").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

const PlanItem *PlansPage::currentPlan() const
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return nullptr;
    return m_model->plan(m_proxy->mapToSource(current).row());
}

void PlansPage::onCurrentRowChanged()
{
    const PlanItem *plan = currentPlan();
    m_sell->setEnabled(plan != nullptr);
    if (!plan) {
        m_details->setText(m_model->rowCount() > 0 ? tr("No plan matches the filters.") : QString());
        return;
    }
    QStringList lines;
    lines << tr("<b>%1</b> · %2 · talktime %3")
                 .arg(Money::formatIndianRupees(plan->amountRupees), plan->validity.toHtmlEscaped(),
                      plan->talktime.toHtmlEscaped());
    lines << plan->benefit.toHtmlEscaped();
    for (const PlanSubscription &subscription : plan->subscriptions)
        lines << tr("<i>%1</i>: %2").arg(subscription.name.toHtmlEscaped(), subscription.description.toHtmlEscaped());
    if (!plan->remark.isEmpty())
        lines << plan->remark.toHtmlEscaped();
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

void PlansPage::onSellClicked()
{
    const PlanItem *plan = currentPlan();
    if (!plan)
        return;
    emit sellPlanRequested(operatorCode(), circleCode(), *plan);
}

void PlansPage::requestLogos()
{
    for (const PlanItem &plan : m_model->plans()) {
        for (const PlanSubscription &subscription : plan.subscriptions) {
            const QString name = subscription.logo;
            if (name.isEmpty() || m_logoRequests.contains(name))
                continue;
            m_logoRequests.insert(name);
            ApiCall *call = PlansApi(m_context.api()).logo(name);
            connect(call, &ApiCall::finished, this, [this, name](const ApiResult &result) {
                if (result.httpStatus == 0) {
                    m_logoRequests.remove(name); // unreachable: try again with the next category
                    return;
                }
                if (result.ok())
                    renderLogo(name, result.body);
            });
        }
    }
}

void PlansPage::renderLogo(const QString &name, const QByteArray &svg)
{
    QSvgRenderer renderer(svg);
    if (!renderer.isValid())
        return;
    const qreal ratio = devicePixelRatioF();
    const int size = PlanTableModel::kLogoSize;
    QPixmap pixmap(QSize(size, size) * ratio);
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    renderer.render(&painter, QRectF(0, 0, size, size));
    painter.end();
    m_logos.insert(name, pixmap);
    m_model->logoArrived(name);
}

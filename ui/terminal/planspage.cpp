#include "planspage.h"

#include "apiclient.h"
#include "clock.h"
#include "planfilterproxy.h"
#include "planlogos.h"
#include "plansapi.h"
#include "ui_planspage.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabBar>
#include <QTableView>

namespace {

constexpr qint64 kStaleAfterDays = 7;

QString pairKey(const QString &operatorCode, const QString &circleCode)
{
    return operatorCode + QLatin1Char('/') + circleCode;
}

} // namespace

PlansPage::PlansPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::PlansPage>()),
      m_logos(new PlanLogos(context.api(), this)), m_model(new PlanTableModel(m_logos->pixmaps(), this)),
      m_proxy(new PlanFilterProxy(this))
{
    m_ui->setupUi(this);

    for (const OperatorInfo &info : m_context.catalog().operators(ProductKind::Mobile))
        m_ui->operatorCombo->addItem(info.name, info.code);
    for (const CircleInfo &info : m_context.catalog().circles())
        m_ui->circleCombo->addItem(info.name, info.code);
    const int remembered = m_ui->circleCombo->findData(m_context.settings().value(circleSettingsKey()).toString());
    m_ui->circleCombo->setCurrentIndex(remembered >= 0 ? remembered : 0);
    m_ui->planSearch->installEventFilter(this);
    m_ui->operatorCombo->installEventFilter(this);
    m_ui->circleCombo->installEventFilter(this);

    m_proxy->setSourceModel(m_model);
    m_proxy->sort(PlanTableModel::AmountColumn, Qt::AscendingOrder);
    QTableView *table = m_ui->planTable;
    table->setModel(m_proxy);
    table->verticalHeader()->setDefaultSectionSize(PlanTableModel::kLogoSize + 16);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(PlanTableModel::BenefitsColumn, QHeaderView::Stretch);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    connect(m_ui->operatorCombo, &QComboBox::currentIndexChanged, this, [this] { load(); });
    connect(m_ui->circleCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_context.settings().setValue(circleSettingsKey(), circleCode());
        load();
    });
    connect(m_ui->minPrice, &QSpinBox::valueChanged, this, &PlansPage::onFiltersChanged);
    connect(m_ui->maxPrice, &QSpinBox::valueChanged, this, &PlansPage::onFiltersChanged);
    connect(m_ui->planSearch, &QLineEdit::textChanged, this, &PlansPage::onFiltersChanged);
    connect(m_ui->planSearch, &QLineEdit::returnPressed, table, qOverload<>(&QWidget::setFocus));
    connect(m_ui->clearFilters, &QPushButton::clicked, this, [this] {
        m_ui->minPrice->setValue(0);
        m_ui->maxPrice->setValue(0);
        m_ui->planSearch->clear();
        m_ui->planSearch->setFocus();
    });
    connect(m_ui->categoryTabs, &QTabBar::currentChanged, this, &PlansPage::onCategoryChanged);
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PlansPage::onCurrentRowChanged);
    connect(table, &QTableView::activated, this, &PlansPage::onSellClicked);
    connect(m_ui->sellPlanButton, &QPushButton::clicked, this, &PlansPage::onSellClicked);
    connect(m_logos, &PlanLogos::arrived, m_model, &PlanTableModel::logoArrived);
}

PlansPage::~PlansPage() = default;

QString PlansPage::circleSettingsKey()
{
    return QStringLiteral("circle");
}

QString PlansPage::operatorCode() const
{
    return m_ui->operatorCombo->currentData().toString();
}

QString PlansPage::circleCode() const
{
    return m_ui->circleCombo->currentData().toString();
}

bool PlansPage::selectPair(const QString &operatorCode, const QString &circleCode)
{
    const int operatorIndex = m_ui->operatorCombo->findData(operatorCode);
    const int circleIndex = m_ui->circleCombo->findData(circleCode);
    if (operatorIndex < 0 || circleIndex < 0)
        return false;
    const bool changed =
        operatorIndex != m_ui->operatorCombo->currentIndex() || circleIndex != m_ui->circleCombo->currentIndex();
    {
        const QSignalBlocker blockOperator(m_ui->operatorCombo);
        const QSignalBlocker blockCircle(m_ui->circleCombo);
        m_ui->operatorCombo->setCurrentIndex(operatorIndex);
        m_ui->circleCombo->setCurrentIndex(circleIndex);
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
    if (const int shopCircle = m_ui->circleCombo->findData(m_context.shopCircle()); shopCircle >= 0) {
        const QSignalBlocker block(m_ui->circleCombo);
        m_ui->circleCombo->setCurrentIndex(shopCircle);
    }
    load();
}

bool PlansPage::followMobileSale()
{
    const MobileSaleInProgress &sale = m_context.mobileSale();
    m_ui->plansForNumber->setVisible(!sale.phoneNumber.isEmpty());
    if (sale.phoneNumber.isEmpty())
        return false;
    QString circle = sale.circleCode;
    if (circle.isEmpty())
        circle = m_loadedOnce || m_context.shopCircle().isEmpty() ? circleCode() : m_context.shopCircle();
    const QString operatorCode = sale.operatorCode.isEmpty() ? this->operatorCode() : sale.operatorCode;
    const OperatorInfo *info = m_context.catalog().findOperator(sale.operatorCode, ProductKind::Mobile);
    m_ui->plansForNumber->setText(
        info ? tr("Plans for %1 (%2), the number on the Mobile recharge screen").arg(sale.phoneNumber, info->name)
             : tr("Plans for %1, the number on the Mobile recharge screen").arg(sale.phoneNumber));
    return selectPair(operatorCode, circle);
}

bool PlansPage::eventFilter(QObject *watched, QEvent *event)
{
    // Down from the search box goes to the plan list, so a sale needs no mouse.
    if (watched == m_ui->planSearch && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Down) {
        m_ui->planTable->setFocus();
        return true;
    }
    // Enter on a picker goes to the plan list: operator letter, Enter, arrows, Enter sells.
    if ((watched == m_ui->operatorCombo || watched == m_ui->circleCombo) && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_ui->planTable->setFocus();
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
    m_ui->plansError->hide();
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
        m_ui->plansStatus->setText(tr("Loading plans…"));
    }

    ApiCall *call = PlansApi(m_context.api()).prepaidPlans(operatorCode, circleCode, etag);
    connect(call, &ApiCall::finished, this, [this, generation, key, operatorCode, circleCode](const ApiResult &result) {
        if (generation != m_generation)
            return;
        m_lastHttpStatus = result.httpStatus;
        if (!result.ok()) {
            m_ui->plansError->setText(tr("Could not load the plans: %1").arg(result.error->description()));
            m_ui->plansError->show();
            if (m_shownKey != key)
                m_ui->plansStatus->clear();
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
        m_ui->plansSource->setText(sourceText(*answer.value, m_context.clock().nowUtc(), &stale));
        Look::set(m_ui->plansSource, stale ? "warning" : "hint");
    });
}

void PlansPage::showPlans(const QJsonObject &data)
{
    const QString previousCategory = m_ui->categoryTabs->currentIndex() >= 0
                                         ? m_ui->categoryTabs->tabData(m_ui->categoryTabs->currentIndex()).toString()
                                         : QString();
    QString problem;
    const std::optional<PrepaidPlans> plans =
        data.isEmpty() ? std::optional<PrepaidPlans>(PrepaidPlans()) : PrepaidPlans::fromJson(data, &problem);
    if (!plans) {
        m_ui->plansError->setText(
            tr("Could not load the plans: %1").arg(AnswerDecoding::badAnswer(200, problem).description()));
        m_ui->plansError->show();
    }
    m_categories = plans ? plans->categories : QList<PlanCategory>();
    int selected = 0;
    qsizetype total = 0;
    {
        const QSignalBlocker blocker(m_ui->categoryTabs);
        while (m_ui->categoryTabs->count() > 0)
            m_ui->categoryTabs->removeTab(0);
        for (qsizetype i = 0; i < m_categories.size(); ++i) {
            const PlanCategory &category = m_categories.at(i);
            const int tab = m_ui->categoryTabs->addTab(tr("%1 (%2)").arg(category.name).arg(category.items.size()));
            m_ui->categoryTabs->setTabData(tab, category.name);
            if (category.name == previousCategory)
                selected = tab;
            total += category.items.size();
        }
        if (m_ui->categoryTabs->count() > 0)
            m_ui->categoryTabs->setCurrentIndex(selected);
    }
    if (plans && !data.isEmpty()) {
        m_ui->plansStatus->setText(tr("%1 in %2: %3 plans in %4 categories")
                                       .arg(plans->operatorName, plans->circleName)
                                       .arg(total)
                                       .arg(m_categories.size()));
    }
    onCategoryChanged(m_ui->categoryTabs->currentIndex());
}

void PlansPage::onCategoryChanged(int index)
{
    m_model->setPlans(index >= 0 && index < m_categories.size() ? m_categories.at(index).items : QList<PlanItem>());
    m_logos->fetchFor(m_model->plans(), devicePixelRatioF());
    if (m_proxy->rowCount() > 0)
        m_ui->planTable->setCurrentIndex(m_proxy->index(0, 0));
    m_ui->planTable->scrollToTop();
    onCurrentRowChanged();
    updateCount();
}

void PlansPage::onFiltersChanged()
{
    m_proxy->setPriceRange(m_ui->minPrice->value(), m_ui->maxPrice->value());
    m_proxy->setSearchText(m_ui->planSearch->text());
    if (!m_ui->planTable->currentIndex().isValid() && m_proxy->rowCount() > 0)
        m_ui->planTable->setCurrentIndex(m_proxy->index(0, 0));
    onCurrentRowChanged();
    updateCount();
}

void PlansPage::updateCount()
{
    m_ui->planCount->setText(tr("%1 of %2 plans").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

const PlanItem *PlansPage::currentPlan() const
{
    const QModelIndex current = m_ui->planTable->currentIndex();
    if (!current.isValid())
        return nullptr;
    return m_model->plan(m_proxy->mapToSource(current).row());
}

void PlansPage::onCurrentRowChanged()
{
    const PlanItem *plan = currentPlan();
    m_ui->sellPlanButton->setEnabled(plan != nullptr);
    if (!plan) {
        m_ui->planDetails->setText(m_model->rowCount() > 0 ? tr("No plan matches the filters.") : QString());
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
    m_ui->planDetails->setText(lines.join(QStringLiteral("<br>")));
}

void PlansPage::onSellClicked()
{
    const PlanItem *plan = currentPlan();
    if (!plan)
        return;
    emit sellPlanRequested(operatorCode(), circleCode(), *plan);
}

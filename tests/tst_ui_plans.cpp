#include "apiclient.h"
#include "plans/plancatalogue.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/planfilterproxy.h"
#include "terminal/planspage.h"
#include "terminal/plantablemodel.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "terminalview.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace {

/// The shared TerminalFixture (a real server, a test key) and the plans page at a 1366x768 terminal's content size.
struct Fixture : TerminalFixture
{
    std::unique_ptr<PlansPage> page;
    std::unique_ptr<QAbstractItemModelTester> modelTester;
    std::unique_ptr<QAbstractItemModelTester> proxyTester;

    Fixture()
    {
        page = std::make_unique<PlansPage>(context);
        page->setProperty("kiosk", qEnvironmentVariableIsSet("RECHARGEDESK_SCREENSHOT_KIOSK"));
        modelTester = std::make_unique<QAbstractItemModelTester>(
            page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxyTester = std::make_unique<QAbstractItemModelTester>(
            page->filter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page->resize(1156, 700);
        page->show();
    }

    template <typename T> T *find(const char *name) const
    {
        T *widget = page->findChild<T *>(QLatin1String(name));
        if (!widget)
            qWarning("no widget named %s", name);
        return widget;
    }

    /// The categories the API answers for a pair, read with the test's own client.
    QJsonArray categories(const QString &operatorCode, const QString &circleCode)
    {
        const HttpResult result = server.http().postJson(
            server.url(QStringLiteral("/api/v1/plans/mobile/prepaid-plans")),
            QJsonObject{{QStringLiteral("operator_code"), operatorCode}, {QStringLiteral("circle_code"), circleCode}},
            auth());
        return result.data().value(QStringLiteral("categories")).toArray();
    }

    /// Waits for the plans of the page's current pair to be on screen.
    bool waitShown(QSignalSpy &spy, int count)
    {
        return QTest::qWaitFor([&] { return spy.count() >= count; }, 10000);
    }
};

QStringList tabNames(const QTabBar &tabs)
{
    QStringList names;
    for (int i = 0; i < tabs.count(); ++i)
        names << tabs.tabData(i).toString();
    return names;
}

/// True once every plan shows one logo per distinct subscription logo in its OTT cell (none without subscriptions).
bool logosDrawn(const PlanTableModel &model)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        QSet<QString> logos;
        for (const PlanSubscription &subscription : model.plan(row)->subscriptions)
            logos.insert(subscription.logo);
        const QPixmap strip =
            model.index(row, PlanTableModel::BenefitsColumn).data(Qt::DecorationRole).value<QPixmap>();
        const qreal width = strip.isNull() ? 0 : strip.deviceIndependentSize().width();
        if (width < PlanTableModel::kLogoSize * logos.size())
            return false;
        if (logos.isEmpty() && !strip.isNull())
            return false;
    }
    return true;
}

QList<qint64> shownAmounts(const QAbstractItemModel &model)
{
    QList<qint64> amounts;
    for (int row = 0; row < model.rowCount(); ++row)
        amounts << model.index(row, 0).data(PlanTableModel::AmountRole).toLongLong();
    return amounts;
}

} // namespace

class TestUiPlans final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void operatorAndCircleBuildTheTabs();
    void filtersNarrowTheList();
    void logosAreFetchedAndDrawn();
    void secondLoadRevalidatesWithEtag();
    void sourceLineSaysWhereThePlansCameFrom();
    void sellThisPlanEmitsTheChosenPlan();
    void terminalOpensMobileRechargeForTheSoldPlan();
    void sellThisPlanStartsAFreshSaleWithTheAmountLocked();
    void searchFindsPrices();
    void opensOnTheShopsCircle();
    void opensOnTheNumberBeingSold();
    void circleNamesAreWhole();
    void tabOrderFollowsTheScreen();
    void dropDownArrowsAreArrows();
    void proxyFilter_data();
    void proxyFilter();
};

void TestUiPlans::initTestCase()
{
    QVERIFY(applyTerminalStyle());
}

void TestUiPlans::dropDownArrowsAreArrows()
{
    // Issue 27: the drop-down arrows of the operator and circle pickers are arrows pointing down (narrowing row by
    // row), not the dark bars the border trick of style.qss drew.
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(f.page.get()));
    for (const char *name : {"operatorCombo", "circleCombo"}) {
        auto *combo = f.find<QComboBox>(name);
        QVERIFY(combo);
        QStyleOptionComboBox option;
        option.initFrom(combo);
        option.editable = combo->isEditable();
        option.subControls = QStyle::SC_All;
        const QRect arrow =
            combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxArrow, combo);
        QVERIFY2(arrow.isValid(), name);
        const QImage image = combo->grab(arrow).toImage();
        QList<int> rowWidths; // dark pixels per row, top to bottom, rows with none left out
        for (int y = 0; y < image.height(); ++y) {
            int dark = 0;
            for (int x = 0; x < image.width(); ++x)
                dark += qGray(image.pixel(x, y)) < 128 ? 1 : 0;
            if (dark > 0)
                rowWidths << dark;
        }
        QVERIFY2(rowWidths.size() >= 3, name);
        QStringList widths;
        for (int width : std::as_const(rowWidths))
            widths << QString::number(width);
        QVERIFY2(rowWidths.constFirst() >= rowWidths.constLast() + 4,
                 qPrintable(QLatin1String(name) + QStringLiteral(": dark pixels per row ") + widths.join(u',')));
    }
    f.page->grab().save(QStringLiteral("/tmp/agentC/plans_arrows.png"));
    f.find<QComboBox>("circleCombo")
        ->grab()
        .scaled(QSize(600, 120), Qt::KeepAspectRatio)
        .save(QStringLiteral("/tmp/agentC/plans_circle_combo.png"));
}

void TestUiPlans::operatorAndCircleBuildTheTabs()
{
    Fixture f;
    QSignalSpy shown(f.page.get(), &PlansPage::plansShown);
    auto *operators = f.find<QComboBox>("operatorCombo");
    auto *circles = f.find<QComboBox>("circleCombo");
    auto *tabs = f.find<QTabBar>("categoryTabs");
    QVERIFY(operators && circles && tabs);
    QCOMPARE(operators->count(), 4);
    QCOMPARE(circles->count(), 23);
    QVERIFY(f.waitShown(shown, 1)); // the first show loads the default pair

    // Pick by typing, as a clerk would: "Airtel", then "Karnataka".
    QTest::keyClicks(operators, QStringLiteral("Airtel"));
    QCOMPARE(f.page->operatorCode(), QStringLiteral("AT"));
    QTest::keyClicks(circles, QStringLiteral("Karn"));
    QCOMPARE(f.page->circleCode(), QStringLiteral("KA"));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().at(0) == QStringLiteral("AT") &&
                                 shown.last().at(1) == QStringLiteral("KA"),
                             10000);
    QCOMPARE(f.page->lastHttpStatus(), 200);

    const QJsonArray categories = f.categories(QStringLiteral("AT"), QStringLiteral("KA"));
    QVERIFY(categories.size() > 1);
    QStringList expected;
    for (const QJsonValue &category : categories)
        expected << category.toObject().value(QStringLiteral("name")).toString();
    QCOMPARE(tabNames(*tabs), expected);

    // Each tab lists exactly its category's plans, cheapest first.
    for (int i = 0; i < categories.size(); ++i) {
        tabs->setCurrentIndex(i);
        const QJsonArray items = categories.at(i).toObject().value(QStringLiteral("items")).toArray();
        QList<qint64> amounts;
        for (const QJsonValue &item : items)
            amounts << item.toObject().value(QStringLiteral("amount")).toInteger();
        std::sort(amounts.begin(), amounts.end());
        QCOMPARE(shownAmounts(*f.page->filter()), amounts);
        QVERIFY(tabs->tabText(i).contains(QString::number(items.size())));
    }
    tabs->setCurrentIndex(0);
    screenshot(*f.page, QStringLiteral("plans-1-list"));

    // The circle is remembered for the next time the screen opens.
    QCOMPARE(f.context.settings().value(PlansPage::circleSettingsKey()).toString(), QStringLiteral("KA"));
    PlansPage again(f.context);
    QCOMPARE(again.circleCode(), QStringLiteral("KA"));
}

void TestUiPlans::filtersNarrowTheList()
{
    Fixture f;
    QSignalSpy shown(f.page.get(), &PlansPage::plansShown);
    QVERIFY(f.page->selectPair(QStringLiteral("AT"), QStringLiteral("KA")));
    QTRY_VERIFY_WITH_TIMEOUT(f.page->filter()->rowCount() > 0 && !shown.isEmpty(), 10000);
    auto *tabs = f.find<QTabBar>("categoryTabs");
    const int ott = int(tabNames(*tabs).indexOf(QStringLiteral("Entertainment/OTT")));
    QVERIFY(ott >= 0);
    tabs->setCurrentIndex(ott);
    const int all = f.page->filter()->rowCount();
    QVERIFY(all >= 4);

    // Price range typed into the spin boxes.
    auto *minPrice = f.find<QSpinBox>("minPrice");
    auto *maxPrice = f.find<QSpinBox>("maxPrice");
    QTest::keyClick(minPrice, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(minPrice, QStringLiteral("150"));
    QTest::keyClick(maxPrice, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(maxPrice, QStringLiteral("1000"));
    QCOMPARE(minPrice->value(), 150);
    QCOMPARE(maxPrice->value(), 1000);
    const QList<qint64> inRange = shownAmounts(*f.page->filter());
    QVERIFY(!inRange.isEmpty());
    QVERIFY(inRange.size() < all);
    for (qint64 amount : inRange)
        QVERIFY2(amount >= 150 && amount <= 1000, QByteArray::number(amount));

    // Text narrows further, over subscription names too.
    auto *search = f.find<QLineEdit>("planSearch");
    QTest::keyClicks(search, QStringLiteral("hotstar"));
    const int withText = f.page->filter()->rowCount();
    QVERIFY(withText > 0);
    QVERIFY(withText < inRange.size());
    for (int row = 0; row < withText; ++row) {
        const QString text = f.page->filter()->index(row, 0).data(PlanTableModel::SearchTextRole).toString();
        QVERIFY(text.contains(QLatin1String("Hotstar"), Qt::CaseInsensitive));
    }
    QTRY_VERIFY_WITH_TIMEOUT(logosDrawn(*f.page->model()), 10000);
    screenshot(*f.page, QStringLiteral("plans-2-filtered"));

    // Nothing matches: the list is empty and Sell is off; Clear filters brings everything back.
    QTest::keyClicks(search, QStringLiteral(" zzzz"));
    QCOMPARE(f.page->filter()->rowCount(), 0);
    QVERIFY(!f.find<QPushButton>("sellPlanButton")->isEnabled());
    QTest::mouseClick(f.find<QPushButton>("clearFilters"), Qt::LeftButton);
    QCOMPARE(f.page->filter()->rowCount(), all);
    QVERIFY(f.find<QPushButton>("sellPlanButton")->isEnabled());
}

void TestUiPlans::logosAreFetchedAndDrawn()
{
    Fixture f;
    QVERIFY(f.page->selectPair(QStringLiteral("AT"), QStringLiteral("KA")));
    QTRY_VERIFY_WITH_TIMEOUT(f.page->model()->rowCount() > 0, 10000);
    // Every plan with subscriptions gets a logo strip in the OTT column once the SVGs have arrived.
    QTRY_VERIFY_WITH_TIMEOUT(logosDrawn(*f.page->model()), 10000);
    int withLogos = 0;
    for (const PlanItem &plan : f.page->model()->plans())
        withLogos += plan.subscriptions.isEmpty() ? 0 : 1;
    QVERIFY(withLogos > 0);
}

void TestUiPlans::secondLoadRevalidatesWithEtag()
{
    Fixture f;
    QSignalSpy shown(f.page.get(), &PlansPage::plansShown);
    QVERIFY(f.waitShown(shown, 1));
    QVERIFY(f.page->selectPair(QStringLiteral("RJ"), QStringLiteral("MU")));
    QVERIFY(f.waitShown(shown, 2));
    QCOMPARE(f.page->lastHttpStatus(), 200);
    const QStringList tabs = tabNames(*f.find<QTabBar>("categoryTabs"));
    const QList<qint64> amounts = shownAmounts(*f.page->filter());
    QVERIFY(!amounts.isEmpty());

    QVERIFY(f.page->selectPair(QStringLiteral("VI"), QStringLiteral("MU")));
    QVERIFY(f.waitShown(shown, 3));
    QCOMPARE(f.page->lastHttpStatus(), 200);
    QVERIFY(shownAmounts(*f.page->filter()) != amounts);

    // Back to Jio: the cached plans show at once, and the server confirms them with 304.
    QVERIFY(f.page->selectPair(QStringLiteral("RJ"), QStringLiteral("MU")));
    QCOMPARE(shownAmounts(*f.page->filter()), amounts);
    QVERIFY(f.waitShown(shown, 4));
    QCOMPARE(f.page->lastHttpStatus(), 304);
    QCOMPARE(tabNames(*f.find<QTabBar>("categoryTabs")), tabs);
    QCOMPARE(shownAmounts(*f.page->filter()), amounts);
}

/// Issue 13: the line under the pickers names the catalogue's source and date, and warns when it is over 7 days old.
void TestUiPlans::sourceLineSaysWhereThePlansCameFrom()
{
    Fixture f;
    QLabel *source = f.find<QLabel>("plansSource");
    QVERIFY(source);
    const QJsonObject shipped =
        f.server.http().get(f.server.url(QStringLiteral("/api/v1/plans/catalogue")), f.auth()).data();
    const QString shippedDate = IstTime::parse(shipped.value(QStringLiteral("updated_at")).toString())
                                    .date()
                                    .toString(QStringLiteral("d MMM yyyy"));
    QTRY_VERIFY2(source->text().startsWith(QStringLiteral("Plans shipped with the program, ") + shippedDate),
                 qPrintable(source->text()));

    // A catalogue copied from an upstream ten days ago: its host and date, and the warning.
    const auto install = [&f](const QDateTime &updatedAt) {
        QFile file(PlanCatalogue::builtInPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        root[QStringLiteral("source")] = QStringLiteral("upstream dist.example:8443");
        root[QStringLiteral("upstream_host")] = QStringLiteral("dist.example:8443");
        root[QStringLiteral("updated_at")] = IstTime::toIst(updatedAt).toString(Qt::ISODate);
        const HttpResult put =
            f.server.http().send("PUT", f.server.url(QStringLiteral("/api/v1/plans/catalogue")),
                                 QJsonDocument(root).toJson(QJsonDocument::Compact),
                                 {{"Authorization", f.server.liveAdmin()}, {"Content-Type", "application/json"}});
        QCOMPARE(put.status, 200);
    };
    const QDateTime tenDaysAgo = QDateTime::currentDateTimeUtc().addDays(-10);
    install(tenDaysAgo);
    QVERIFY(f.page->selectPair(QStringLiteral("VI"), QStringLiteral("MU")));
    QTRY_COMPARE(source->text(), QStringLiteral("Plans from dist.example:8443, updated %1 — older than 7 days, prices "
                                                "may have changed")
                                     .arg(IstTime::toIst(tenDaysAgo).date().toString(QStringLiteral("d MMM yyyy"))));
    screenshot(*f.page, QStringLiteral("plans-source-stale"));

    const QDateTime yesterday = QDateTime::currentDateTimeUtc().addDays(-1);
    install(yesterday);
    QVERIFY(f.page->selectPair(QStringLiteral("RJ"), QStringLiteral("MU")));
    QTRY_COMPARE(source->text(), QStringLiteral("Plans from dist.example:8443, updated %1")
                                     .arg(IstTime::toIst(yesterday).date().toString(QStringLiteral("d MMM yyyy"))));
}

void TestUiPlans::sellThisPlanEmitsTheChosenPlan()
{
    Fixture f;
    QSignalSpy sell(f.page.get(), &PlansPage::sellPlanRequested);
    QVERIFY(QTest::qWaitForWindowActive(f.page.get()));
    QVERIFY(f.page->selectPair(QStringLiteral("VI"), QStringLiteral("DL")));
    QTRY_VERIFY_WITH_TIMEOUT(f.page->filter()->rowCount() > 2 && f.page->lastHttpStatus() == 200, 10000);

    // Keyboard: into the list, down to the second plan, Enter.
    auto *table = f.find<QTableView>("planTable");
    table->setFocus();
    QCOMPARE(table->currentIndex().row(), 0);
    QTest::keyClick(table, Qt::Key_Down);
    QTest::keyClick(table, Qt::Key_Return);
    QCOMPARE(sell.count(), 1);
    const PlanItem *second = f.page->model()->plan(f.page->filter()->mapToSource(f.page->filter()->index(1, 0)).row());
    QVERIFY(second);
    QCOMPARE(sell.at(0).at(0).toString(), QStringLiteral("VI"));
    QCOMPARE(sell.at(0).at(1).toString(), QStringLiteral("DL"));
    const PlanItem sold = sell.at(0).at(2).value<PlanItem>();
    QCOMPARE(sold.planId, second->planId);
    QCOMPARE(sold.amountRupees, second->amountRupees);
    const QString summary = sold.summary();
    QVERIFY2(summary.startsWith(QStringLiteral("₹%1 · ").arg(second->amountRupees)), qPrintable(summary));
    QVERIFY(summary.contains(second->validity));
    QVERIFY(summary.contains(second->benefit));

    // The button sells the selected plan too.
    auto *button = f.find<QPushButton>("sellPlanButton");
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(sell.count(), 2);
    QCOMPARE(sell.at(1).at(2).value<PlanItem>().amountRupees, second->amountRupees);
}

void TestUiPlans::terminalOpensMobileRechargeForTheSoldPlan()
{
    Fixture f;
    f.page->hide();
    TerminalView view(f.context, false);
    view.resize(1366, 720);
    view.show();
    // Verify customer is the first screen (F1), Plans the second (F2).
    auto *navigation = view.findChild<QListWidget *>(QStringLiteral("navigation"));
    QVERIFY(navigation && navigation->count() >= 3);
    QVERIFY(navigation->item(0)->text().startsWith(QLatin1String("Verify customer")));
    QVERIFY(navigation->item(1)->text().startsWith(QLatin1String("Plans")));
    QVERIFY(view.showScreen(QStringLiteral("plans")));
    auto *plans = qobject_cast<PlansPage *>(view.screen(QStringLiteral("plans")));
    QVERIFY(plans);
    QVERIFY(plans->selectPair(QStringLiteral("BS"), QStringLiteral("KL")));
    QTRY_VERIFY_WITH_TIMEOUT(plans->filter()->rowCount() > 0 && plans->lastHttpStatus() == 200, 10000);
    QWidget *mobile = view.screen(QStringLiteral("mobile"));
    QVERIFY(mobile);
    QVERIFY(!mobile->isVisible());
    QTest::mouseClick(plans->findChild<QPushButton *>(QStringLiteral("sellPlanButton")), Qt::LeftButton);
    QVERIFY(mobile->isVisible());
    QVERIFY(!plans->isVisible());
}

// Issue 10: "Sell this plan" is a new customer's sale: the old number goes, focus is in the
// number, the amount is the plan's (locked), and changing it unlinks the plan visibly.
void TestUiPlans::sellThisPlanStartsAFreshSaleWithTheAmountLocked()
{
    Fixture f;
    f.page->hide();
    TerminalView view(f.context, false);
    view.resize(1366, 720);
    view.show();
    QApplication::setActiveWindow(&view);
    QVERIFY(QTest::qWaitForWindowActive(&view));
    auto *mobile = qobject_cast<MobileRechargePage *>(view.screen(QStringLiteral("mobile")));
    QVERIFY(mobile);
    QVERIFY(view.showScreen(QStringLiteral("mobile")));
    auto *number = mobile->findChild<QLineEdit *>(QStringLiteral("phoneNumber"));
    auto *amount = mobile->findChild<QLineEdit *>(QStringLiteral("amount"));
    QTest::keyClicks(number, QStringLiteral("9812345678")); // the previous customer's
    QTest::keyClicks(amount, QStringLiteral("50"));

    QVERIFY(view.showScreen(QStringLiteral("plans")));
    auto *plans = qobject_cast<PlansPage *>(view.screen(QStringLiteral("plans")));
    QVERIFY(plans->selectPair(QStringLiteral("RJ"), QStringLiteral("KA")));
    QTRY_VERIFY_WITH_TIMEOUT(plans->filter()->rowCount() > 1 && plans->lastHttpStatus() == 200, 10000);
    auto *table = plans->findChild<QTableView *>(QStringLiteral("planTable"));
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Down);
    const PlanItem *plan = plans->model()->plan(plans->filter()->mapToSource(table->currentIndex()).row());
    QVERIFY(plan);
    QTest::keyClick(table, Qt::Key_Return);

    QVERIFY(mobile->isVisible());
    QVERIFY(number->text().isEmpty());
    QCOMPARE(QApplication::focusWidget(), number);
    QCOMPARE(amount->text(), QString::number(plan->amountRupees));
    QVERIFY(amount->isReadOnly());
    QVERIFY(mobile->planLinked());
    auto *chip = mobile->findChild<QLabel *>(QStringLiteral("planChipText"));
    auto *unlink = mobile->findChild<QPushButton *>(QStringLiteral("unlinkPlan"));
    QVERIFY(chip->isVisible() && unlink->isVisible());
    QVERIFY2(chip->text().startsWith(QStringLiteral("Plan: ₹%1 · ").arg(plan->amountRupees)), qPrintable(chip->text()));
    QCoreApplication::processEvents(); // pending layout requests, as on screen
    screenshot(view, QStringLiteral("plan_linked"));

    // The plan shows on the confirmation while linked.
    QTest::keyClicks(number, QStringLiteral("9876543210"));
    QTest::keyClick(number, Qt::Key_Return);
    SaleFlow *flow = mobile->flow();
    QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, 10000);
    const auto confirmText = [flow] {
        QStringList texts;
        for (QLabel *label : flow->confirmPanel()->findChildren<QLabel *>())
            texts << label->text();
        return texts.join(u'\n');
    };
    QVERIFY2(confirmText().contains(QStringLiteral("Plan: ")), qPrintable(confirmText()));
    QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Escape);

    // Typing a new amount unlinks the plan: the chip goes, a line says so, the amount is the typed one.
    QTest::keyClicks(amount, QStringLiteral("123"));
    QCOMPARE(amount->text(), QStringLiteral("123"));
    QVERIFY(!amount->isReadOnly());
    QVERIFY(!mobile->planLinked());
    QVERIFY(!chip->isVisible());
    bool unlinkedShown = false;
    for (QLabel *label : mobile->findChildren<QLabel *>())
        unlinkedShown |= label->isVisible() && label->text().contains(QStringLiteral("Plan unlinked"));
    QVERIFY(unlinkedShown);
    QTest::keyClick(amount, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, 10000);
    QVERIFY2(!confirmText().contains(QStringLiteral("Plan: ")), qPrintable(confirmText()));
    QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Escape);

    // The Unlink button does the same.
    QVERIFY(view.showScreen(QStringLiteral("plans")));
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Return);
    QVERIFY(mobile->planLinked());
    QTest::mouseClick(unlink, Qt::LeftButton);
    QVERIFY(!mobile->planLinked());
    QVERIFY(!chip->isVisible());
    QVERIFY(!amount->isReadOnly());
    QCOMPARE(QApplication::focusWidget(), amount);
}

void TestUiPlans::searchFindsPrices()
{
    Fixture f;
    QSignalSpy shown(f.page.get(), &PlansPage::plansShown);
    QVERIFY(f.page->selectPair(QStringLiteral("RJ"), QStringLiteral("KA"))); // Jio in Karnataka
    QTRY_VERIFY_WITH_TIMEOUT(f.page->filter()->rowCount() > 1 && !shown.isEmpty(), 10000);
    const QList<qint64> all = shownAmounts(*f.page->filter());
    const qint64 price = all.at(all.size() / 2);

    // The clerk types the price the customer asks for.
    auto *search = f.find<QLineEdit>("planSearch");
    QTest::keyClicks(search, QString::number(price));
    const QList<qint64> found = shownAmounts(*f.page->filter());
    QVERIFY2(found.contains(price),
             qPrintable(QStringLiteral("no ₹%1 plan among %2 shown").arg(price).arg(found.size())));
    QVERIFY(found.size() < all.size());
    for (int row = 0; row < found.size(); ++row) {
        const QString text = f.page->filter()->index(row, 0).data(PlanTableModel::SearchTextRole).toString();
        QVERIFY(text.contains(QString::number(price)));
    }
    QVERIFY(f.find<QPushButton>("sellPlanButton")->isEnabled());
}

void TestUiPlans::opensOnTheShopsCircle()
{
    Fixture f;
    f.page->hide();
    f.context.setShopCircle(QStringLiteral("RJ"));
    PlansPage page(f.context);
    QSignalSpy shown(&page, &PlansPage::plansShown);
    page.resize(1156, 700);
    page.show();
    QCOMPARE(page.circleCode(), QStringLiteral("RJ"));
    QVERIFY(f.waitShown(shown, 1));
    QCOMPARE(shown.last().at(1).toString(), QStringLiteral("RJ"));
}

void TestUiPlans::opensOnTheNumberBeingSold()
{
    Fixture f;
    f.page->hide();
    f.context.setShopCircle(QStringLiteral("KA"));
    // The shop sold Jio to the number (from another terminal, over HTTP; no circle named).
    const HttpResult sold =
        f.server.http().postJson(f.server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                                 QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("9123456789")},
                                             {QStringLiteral("operator_code"), QStringLiteral("RJ")},
                                             {QStringLiteral("amount"), QStringLiteral("299")}},
                                 f.auth());
    QCOMPARE(sold.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
    TerminalView view(f.context, false);
    view.resize(1366, 720);
    view.show();
    QApplication::setActiveWindow(&view);
    QVERIFY(QTest::qWaitForWindowActive(&view));
    auto *plans = qobject_cast<PlansPage *>(view.screen(QStringLiteral("plans")));
    auto *mobile = qobject_cast<MobileRechargePage *>(view.screen(QStringLiteral("mobile")));
    QVERIFY(plans && mobile);
    auto *forNumber = plans->findChild<QLabel *>(QStringLiteral("plansForNumber"));
    QVERIFY(forNumber);

    // Nothing being sold: Plans opens on the shop's circle.
    QVERIFY(view.showScreen(QStringLiteral("plans")));
    QCOMPARE(plans->circleCode(), QStringLiteral("KA"));
    QVERIFY(!forNumber->isVisible());

    // A number whose operator the shop knows, typed on the Mobile recharge screen; F2 opens its plans.
    QVERIFY(view.showScreen(QStringLiteral("mobile")));
    auto *number = mobile->findChild<QLineEdit *>(QStringLiteral("phoneNumber"));
    QTest::keyClicks(number, QStringLiteral("9123456789"));
    QTRY_COMPARE_WITH_TIMEOUT(mobile->findChild<QComboBox *>(QStringLiteral("operator"))->currentData().toString(),
                              QStringLiteral("RJ"), 10000);
    QTest::keyClick(number, Qt::Key_F2);
    QVERIFY(plans->isVisible());
    QCOMPARE(plans->operatorCode(), QStringLiteral("RJ"));
    QCOMPARE(plans->circleCode(), QStringLiteral("KA"));
    QVERIFY(forNumber->isVisible());
    QVERIFY2(forNumber->text().contains(QLatin1String("9123456789")), qPrintable(forNumber->text()));
    QTRY_VERIFY_WITH_TIMEOUT(plans->filter()->rowCount() > 0 && plans->lastHttpStatus() == 200, 10000);
    screenshot(view, QStringLiteral("plans-for-number"));

    // An operator and circle chosen on the form for another number.
    QVERIFY(view.showScreen(QStringLiteral("mobile")));
    number->clear();
    QTest::keyClicks(number, QStringLiteral("9988776655"));
    auto *op = mobile->findChild<QComboBox *>(QStringLiteral("operator"));
    op->setCurrentIndex(op->findData(QStringLiteral("VI")));
    auto *circle = mobile->findChild<QComboBox *>(QStringLiteral("circle"));
    circle->setCurrentIndex(circle->findData(QStringLiteral("MU")));
    QTest::keyClick(number, Qt::Key_F2);
    QCOMPARE(plans->operatorCode(), QStringLiteral("VI"));
    QCOMPARE(plans->circleCode(), QStringLiteral("MU"));
}

void TestUiPlans::circleNamesAreWhole()
{
    // In the terminal at 1366×768 (the navigation takes its part), every circle name fits the picker.
    Fixture f;
    f.page->hide();
    TerminalView view(f.context, false);
    view.resize(1366, 720);
    view.show();
    QVERIFY(view.showScreen(QStringLiteral("plans")));
    auto *circles = view.screen(QStringLiteral("plans"))->findChild<QComboBox *>(QStringLiteral("circleCombo"));
    QVERIFY(circles);
    QTRY_VERIFY(circles->isVisible());
    QStyleOptionComboBox option;
    option.initFrom(circles);
    option.rect = circles->rect();
    option.frame = true;
    const QRect field =
        circles->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, circles);
    for (int i = 0; i < circles->count(); ++i) {
        const int needed = circles->fontMetrics().horizontalAdvance(circles->itemText(i));
        QVERIFY2(needed <= field.width(), qPrintable(QStringLiteral("\"%1\" needs %2 px, the picker shows %3")
                                                         .arg(circles->itemText(i))
                                                         .arg(needed)
                                                         .arg(field.width())));
    }
}

void TestUiPlans::tabOrderFollowsTheScreen()
{
    // Pickers, price range, search, the category tabs, the list, then "Sell this plan" (the form keeps the order).
    Fixture f;
    const QString spinText = QStringLiteral("qt_spinbox_lineedit");
    QCOMPARE(tabOrder(*f.page),
             QStringList({QStringLiteral("operatorCombo"), QStringLiteral("circleCombo"), QStringLiteral("minPrice"),
                          spinText, QStringLiteral("maxPrice"), spinText, QStringLiteral("planSearch"),
                          QStringLiteral("clearFilters"), QStringLiteral("categoryTabs"), QStringLiteral("planTable"),
                          QStringLiteral("sellPlanButton"), QStringLiteral("ScrollLeftButton"),
                          QStringLiteral("ScrollRightButton")}));
}

void TestUiPlans::proxyFilter_data()
{
    QTest::addColumn<qint64>("minRupees");
    QTest::addColumn<qint64>("maxRupees");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("no filter") << qint64(0) << qint64(0) << QString() << QList<qint64>{99, 199, 299, 599};
    QTest::newRow("min only") << qint64(199) << qint64(0) << QString() << QList<qint64>{199, 299, 599};
    QTest::newRow("max only") << qint64(0) << qint64(299) << QString() << QList<qint64>{99, 199, 299};
    QTest::newRow("range") << qint64(150) << qint64(300) << QString() << QList<qint64>{199, 299};
    QTest::newRow("empty range") << qint64(300) << qint64(150) << QString() << QList<qint64>{};
    QTest::newRow("benefit word") << qint64(0) << qint64(0) << QStringLiteral("ROAMING") << QList<qint64>{599};
    QTest::newRow("subscription name") << qint64(0) << qint64(0) << QStringLiteral("netflix")
                                       << QList<qint64>{299, 599};
    QTest::newRow("all words needed") << qint64(0) << qint64(0) << QStringLiteral("netflix 84") << QList<qint64>{599};
    QTest::newRow("validity and price") << qint64(0) << qint64(250) << QStringLiteral("28 days") << QList<qint64>{199};
    QTest::newRow("blank text") << qint64(0) << qint64(0) << QStringLiteral("   ") << QList<qint64>{99, 199, 299, 599};
    QTest::newRow("price") << qint64(0) << qint64(0) << QStringLiteral("299") << QList<qint64>{299};
    QTest::newRow("price with rupee sign") << qint64(0) << qint64(0) << QStringLiteral("₹99") << QList<qint64>{99};
    QTest::newRow("price and word") << qint64(0) << qint64(0) << QStringLiteral("599 netflix") << QList<qint64>{599};
}

void TestUiPlans::proxyFilter()
{
    QFETCH(qint64, minRupees);
    QFETCH(qint64, maxRupees);
    QFETCH(QString, text);
    QFETCH(QList<qint64>, expected);
    const auto plan = [](qint64 amount, const QString &validity, const QString &benefit, const QString &ott) {
        PlanItem item;
        item.amountRupees = amount;
        item.validity = validity;
        item.benefit = benefit;
        if (!ott.isEmpty())
            item.subscriptions.append({ott, QString(), QString()});
        return item;
    };
    const QHash<QString, QPixmap> noLogos;
    PlanTableModel model(noLogos);
    PlanFilterProxy proxy;
    QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.sort(0);
    model.setPlans({plan(599, QStringLiteral("84 days"), QStringLiteral("Roaming pack"), QStringLiteral("Netflix")),
                    plan(199, QStringLiteral("28 days"), QStringLiteral("1 GB/day"), QString()),
                    plan(299, QStringLiteral("28 days"), QStringLiteral("2 GB/day"), QStringLiteral("Netflix Basic")),
                    plan(99, QStringLiteral("14 days"), QStringLiteral("Talktime"), QString())});
    proxy.setPriceRange(minRupees, maxRupees);
    proxy.setSearchText(text);
    QCOMPARE(shownAmounts(proxy), expected);
}

QTEST_MAIN(TestUiPlans)
#include "tst_ui_plans.moc"

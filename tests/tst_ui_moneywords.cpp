// Issue 10, "Money words": what the counter screens and the receipt say about money, typed into
// the real widgets against the real server (sandbox key, opening wallet ₹10,000.00).

#include "backoffice/walletpage.h"
#include "receipts/receiptrenderer.h"
#include "statuspanel.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/planfilterproxy.h"
#include "terminal/planspage.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminal/saleresultpanel.h"
#include "terminal/statuspoller.h"
#include "terminalfixture.h"
#include "terminalview.h"
#include "widgets/statusbadge.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFontInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 10'000;

/// "name value" of the grid row that shows `value`, as the clerk reads it.
QString rowText(QLabel *value)
{
    QGridLayout *grid = nullptr;
    for (QGridLayout *candidate : value->parentWidget()->findChildren<QGridLayout *>()) {
        if (candidate->indexOf(value) >= 0)
            grid = candidate;
    }
    if (!grid)
        return value->text();
    int row = 0, column = 0, rowSpan = 0, columnSpan = 0;
    grid->getItemPosition(grid->indexOf(value), &row, &column, &rowSpan, &columnSpan);
    auto *name = qobject_cast<QLabel *>(grid->itemAtPosition(row, 0)->widget());
    return name->text() + u' ' + value->text();
}

/// The texts of the visible labels under `widget`.
QStringList visibleTexts(QWidget *widget)
{
    QStringList out;
    for (QLabel *label : widget->findChildren<QLabel *>()) {
        if (label->isVisibleTo(widget) && !label->text().isEmpty())
            out << label->text();
    }
    return out;
}

QStringList receiptLines(const ReceiptData &data)
{
    QStringList out;
    for (const ReceiptBlock &block : ReceiptRenderer::blocks(data, false))
        out << block.text + u'|' + block.value;
    return out;
}

/// Sells on `page` by keyboard: number, operator (by its first letter), amount, Enter → confirm.
void typeSale(MobileRechargePage &page, const QString &number, const QString &operatorKey, const QString &amount)
{
    auto *numberEdit = child<QLineEdit>(page, "phoneNumber");
    QTest::keyClicks(numberEdit, number);
    QTest::keyClick(numberEdit, Qt::Key_Tab);
    QTest::keyClicks(QApplication::focusWidget(), operatorKey);
    auto *amountEdit = child<QLineEdit>(page, "amount");
    amountEdit->setFocus();
    QTest::keyClicks(amountEdit, amount);
    QTest::keyClick(amountEdit, Qt::Key_Return);
    // The form first asks the server about recent sales to this number (the repeat-sale guard).
    QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
}

} // namespace

class TestUiMoneyWords final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The terminal's own style sheet: it makes the bill the large figure.
        QVERIFY(applyTerminalStyle());
    }

    void confirmSaysCollectTheBill()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        showActive(page);
        typeSale(page, QStringLiteral("9876543210"), QStringLiteral("J"), QStringLiteral("299"));
        SaleConfirmPanel *confirm = page.flow()->confirmPanel();
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QCOMPARE(child<QLabel>(*confirm, "confirmOperator")->text(), QStringLiteral("Jio"));
        // The customer pays the bill (₹299); the wallet pays the bill less Jio's 1.5 % (₹4.485 → ₹4.49).
        QCOMPARE(rowText(child<QLabel>(*confirm, "confirmBill")), QStringLiteral("Collect ₹299.00"));
        QCOMPARE(rowText(child<QLabel>(*confirm, "confirmPaid")), QStringLiteral("Wallet debit ₹294.51"));
        QCOMPARE(rowText(child<QLabel>(*confirm, "confirmDiscount")), QStringLiteral("Your commission ₹4.49 (1.5 %)"));
        QTRY_COMPARE_WITH_TIMEOUT(rowText(confirm->walletAfterLabel()), QStringLiteral("Wallet after ₹9,705.49"),
                                  kTimeoutMs);
        // The large figure is the bill, larger than the wallet's figures.
        QVERIFY(QFontInfo(child<QLabel>(*confirm, "confirmBill")->font()).pixelSize() >=
                2 * QFontInfo(child<QLabel>(*confirm, "confirmPaid")->font()).pixelSize() - 2);
        for (const QString &text : visibleTexts(confirm))
            QVERIFY2(!text.contains(QLatin1String("Customer pays")), qPrintable(text));
        settleLayouts();
        confirm->window()->grab().save(QStringLiteral("/tmp/moneywords_confirm.png"));
    }

    void sandboxPlanSaleReceipt()
    {
        TerminalFixture t;
        TerminalView view(t.context, false);
        showActive(view);
        QVERIFY(view.showScreen(QStringLiteral("plans")));
        auto *plans = qobject_cast<PlansPage *>(view.screen(QStringLiteral("plans")));
        QVERIFY(plans->selectPair(QStringLiteral("RJ"), QStringLiteral("KA")));
        QTRY_VERIFY_WITH_TIMEOUT(plans->filter()->rowCount() > 0 && plans->lastHttpStatus() == 200, kTimeoutMs);
        // The ₹299 plan: Enter on its row sells it.
        auto *table = plans->findChild<QTableView *>(QStringLiteral("planTable"));
        QModelIndex row;
        for (int r = 0; r < plans->filter()->rowCount() && !row.isValid(); ++r) {
            if (plans->filter()->index(r, 0).data(PlanTableModel::AmountRole).toLongLong() == 299)
                row = plans->filter()->index(r, 0);
        }
        QVERIFY(row.isValid());
        table->setFocus();
        table->setCurrentIndex(row);
        QTest::keyClick(table, Qt::Key_Return);
        auto *mobile = qobject_cast<MobileRechargePage *>(view.screen(QStringLiteral("mobile")));
        QTRY_VERIFY(mobile->isVisible());
        auto *number = child<QLineEdit>(*mobile, "phoneNumber");
        number->clear();
        QTest::keyClicks(number, QStringLiteral("9876543210"));
        QTest::keyClick(number, Qt::Key_Return);
        SaleFlow *flow = mobile->flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);

        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("SUCCESS"));
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Collect ₹299.00 from the customer"));
        QCOMPARE(rowText(result->detail(QStringLiteral("paid"))), QStringLiteral("Wallet debit ₹294.51"));
        QCOMPARE(rowText(result->detail(QStringLiteral("discount"))), QStringLiteral("Your commission ₹4.49"));
        QVERIFY(!result->adviceLabel()->isVisible());

        // The customer's receipt: stamped, the plan and circle, the bill as paid, no shop figures.
        const QStringList lines = receiptLines(result->receiptData());
        const QString all = lines.join(u'\n');
        for (const QString &expected :
             {QStringLiteral("TEST — NOT A REAL RECHARGE|"), QStringLiteral("Paid|₹299.00"),
              QStringLiteral("Plan|₹299.00"), QStringLiteral("Validity|28 days"),
              QStringLiteral("Unlimited calls, 1.5 GB/day, 100 SMS/day, JioTV + JioCinema + JioCloud|"),
              QStringLiteral("Circle|Karnataka (KA)"), QStringLiteral("Operator|Jio"),
              QStringLiteral("Status|Successful")})
            QVERIFY2(lines.contains(expected), qPrintable(expected + QStringLiteral(" not in\n") + all));
        QVERIFY2(!all.contains(QStringLiteral("₹4.49")) && !all.contains(QStringLiteral("₹294.51")), qPrintable(all));

        // The preview on the panel is that receipt, inside the 1366×768 window.
        QLabel *preview = result->receiptPreview();
        QVERIFY(preview->isVisible());
        const QPixmap customer = preview->pixmap();
        QVERIFY(!customer.isNull());
        QVERIFY(preview->width() <= 400);
        QVERIFY(view.window()->height() <= 768);
        settleLayouts();
        view.grab().save(QStringLiteral("/tmp/moneywords_result_sandbox.png"));

        // Shop copy (the clerk ticks it): commission and wallet debit, and the preview follows.
        QTest::mouseClick(result->shopCopyBox(), Qt::LeftButton, {}, QPoint(8, result->shopCopyBox()->height() / 2));
        QVERIFY(result->shopCopyBox()->isChecked());
        const QStringList shop = receiptLines(result->receiptData());
        QVERIFY(shop.contains(QStringLiteral("Your commission|₹4.49")));
        QVERIFY(shop.contains(QStringLiteral("Wallet debit|₹294.51")));
        QVERIFY(preview->pixmap().height() > customer.height());
    }

    void planLeavesTheReceiptWhenTheAmountChanges()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        showActive(page);
        PlanItem plan;
        plan.amountRupees = 299;
        plan.validity = QStringLiteral("28 days");
        plan.benefit = QStringLiteral("1.5 GB/day");
        page.fillFromPlan(QStringLiteral("RJ"), QStringLiteral("KA"), plan);
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876543210"));
        auto *amount = child<QLineEdit>(page, "amount");
        amount->selectAll();
        QTest::keyClicks(amount, QStringLiteral("349"));
        QTest::keyClick(amount, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        const QStringList lines = receiptLines(page.flow()->resultPanel()->receiptData());
        QVERIFY(lines.contains(QStringLiteral("Paid|₹349.00")));
        for (const QString &line : lines)
            QVERIFY2(!line.startsWith(QLatin1String("Plan|")) && !line.startsWith(QLatin1String("Validity|")),
                     qPrintable(line));
    }

    void failedSaleNothingToPay()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        showActive(page);
        typeSale(page, QStringLiteral("9876540000"), QStringLiteral("J"), QStringLiteral("299"));
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("FAILED"));
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Not recharged — nothing to pay"));
        QVERIFY(result->adviceLabel()->isVisible());
        QVERIFY(result->adviceLabel()->text().contains(QLatin1String("Take no money")));
        QCOMPARE(rowText(result->detail(QStringLiteral("paid"))), QStringLiteral("Wallet debit ₹294.51, refunded"));
        for (const QString &text : visibleTexts(result)) {
            QVERIFY2(text != QLatin1String("Paid"), qPrintable(visibleTexts(result).join(u'\n')));
            QVERIFY2(!text.startsWith(QLatin1String("Collect")), qPrintable(text));
        }
        const QStringList lines = receiptLines(result->receiptData());
        QVERIFY2(lines.contains(QStringLiteral("Not recharged — nothing to pay|")), qPrintable(lines.join(u'\n')));
        QVERIFY(lines.contains(QStringLiteral("Status|Failed")));
        for (const QString &line : lines)
            QVERIFY2(!line.startsWith(QLatin1String("Paid|")), qPrintable(line));
        QVERIFY(!result->receiptPreview()->pixmap().isNull());
        settleLayouts();
        page.grab().save(QStringLiteral("/tmp/moneywords_result_failed.png"));
    }

    void pendingSaleSaysWhatToDo()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        showActive(page);
        page.flow()->poller()->setFirstDelayMs(60'000); // stays PENDING while we look
        typeSale(page, QStringLiteral("9876541111"), QStringLiteral("J"), QStringLiteral("299"));
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Collect ₹299.00 from the customer"));
        QVERIFY(result->adviceLabel()->isVisible());
        QVERIFY(result->adviceLabel()->text().contains(QLatin1String("wait")));
        QVERIFY(result->adviceLabel()->text().contains(QLatin1String("give the money back")));
    }

    // Issue 27: a sale answered PENDING ("Collect ₹299.00") that then fails tells the clerk to give the bill back, on
    // the panel and on the receipt, never "take no money": the money is in the drawer.
    void pendingThenFailedSaysGiveTheMoneyBack()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        page.resize(1366, 768);
        showActive(page);
        page.flow()->poller()->setFirstDelayMs(60'000); // PENDING until the test asks
        typeSale(page, QStringLiteral("9876542222"), QStringLiteral("J"), QStringLiteral("299"));
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Collect ₹299.00 from the customer"));

        // The server settles it FAILED after its 50 ms settle delay; then the panel asks.
        QTRY_COMPARE_WITH_TIMEOUT(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'FAILED'")), 1,
                                  kTimeoutMs);
        page.flow()->poller()->checkNow();
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("FAILED"), kTimeoutMs);
        QVERIFY(result->record()->failedAfterPending); // the server says so too
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Give ₹299.00 back to the customer"));
        QVERIFY(result->adviceLabel()->isVisible());
        QVERIFY2(result->adviceLabel()->text().contains(QLatin1String("wallet debit was refunded")),
                 qPrintable(result->adviceLabel()->text()));
        for (const QString &text : visibleTexts(result)) {
            QVERIFY2(!text.contains(QLatin1String("Take no money")), qPrintable(text));
            QVERIFY2(!text.contains(QLatin1String("nothing to pay")), qPrintable(text));
        }
        const QStringList lines = receiptLines(result->receiptData());
        QVERIFY2(lines.contains(QStringLiteral("Not recharged — money back|")), qPrintable(lines.join(u'\n')));
        QVERIFY2(lines.contains(QStringLiteral("Given back|₹299.00")), qPrintable(lines.join(u'\n')));
        QVERIFY(lines.contains(QStringLiteral("Status|Failed")));
        settleLayouts();
        page.grab().save(QStringLiteral("/tmp/moneywords_result_pending_failed_1366.png"));
    }

    // Issue 27: the panel knows by itself that it said "Collect" (a record without the server's mark, as an older
    // server answers); a sale FAILED from the start still takes no money.
    void panelRemembersItSaidCollect()
    {
        TerminalFixture t;
        SaleResultPanel panel(t.context);
        TransactionRecord record;
        record.transactionId = 41;
        record.operatorName = QStringLiteral("Jio");
        record.number = QStringLiteral("9876542222");
        record.billAmount = 19900;
        record.discount = 299;
        record.paid = 19601;
        record.status = TransactionStatus::Pending;
        record.createdAtMs = QDateTime::currentMSecsSinceEpoch();
        panel.showRecord(record);
        QCOMPARE(panel.moneyLabel()->text(), QStringLiteral("Collect ₹199.00 from the customer"));
        record.status = TransactionStatus::Failed;
        panel.showRecord(record);
        QCOMPARE(panel.moneyLabel()->text(), QStringLiteral("Give ₹199.00 back to the customer"));
        QVERIFY(panel.receiptData().givesMoneyBack());

        record.transactionId = 42; // another sale, FAILED in its answer
        panel.showRecord(record);
        QCOMPARE(panel.moneyLabel()->text(), QStringLiteral("Not recharged — nothing to pay"));
        record.transactionId = 43; // a record the server marked (e.g. shown again after a restart)
        record.failedAfterPending = true;
        panel.showRecord(record);
        QCOMPARE(panel.moneyLabel()->text(), QStringLiteral("Give ₹199.00 back to the customer"));
    }

    // Issue 27: the clerk collected ₹299 for a PENDING sale and moved on (New sale); when it fails, the status bar
    // says to give the money back until the clerk presses "Given back".
    void statusBarSaysGiveBackForASaleLeftPending()
    {
        TerminalFixture t;
        QMainWindow window;
        auto *page = new MobileRechargePage(t.context);
        window.setCentralWidget(page);
        StatusPanel status(t.context, window.statusBar());
        window.resize(1366, 768);
        showActive(window);
        page->flow()->poller()->setFirstDelayMs(60'000); // the panel does not learn the end itself
        typeSale(*page, QStringLiteral("9876542222"), QStringLiteral("J"), QStringLiteral("299"));
        QTest::keyClick(page->flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page->flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        QCOMPARE(page->flow()->resultPanel()->badge()->status(), QStringLiteral("PENDING"));
        QCOMPARE(status.moneyBackText(), QString());
        QVERIFY(!status.moneyBackButton()->isVisible());

        QTRY_COMPARE_WITH_TIMEOUT(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'FAILED'")), 1,
                                  kTimeoutMs); // settled on the server after its 50 ms delay
        QTest::mouseClick(page->flow()->resultPanel()->newSaleButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(page->flow()->stage(), SaleFlow::Stage::Form, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(status.moneyBackText(),
                                  QStringLiteral("Give ₹299.00 back to the customer of 98765 42222 (sale 1)"),
                                  kTimeoutMs);
        QVERIFY(status.moneyBackButton()->isVisible());
        // Its end moved the other figures too: nothing pending, the wallet debit refunded.
        QTRY_COMPARE_WITH_TIMEOUT(status.pendingText(), QStringLiteral("Pending: 0"), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(status.walletText(), QStringLiteral("Wallet: ₹10,000.00"), kTimeoutMs);
        settleLayouts();
        window.grab().save(QStringLiteral("/tmp/moneywords_statusbar_money_back_1366.png"));

        QTest::mouseClick(status.moneyBackButton(), Qt::LeftButton);
        QCOMPARE(status.moneyBackText(), QString());
        QVERIFY(!status.moneyBackButton()->isVisible());
        // The sale ended and is not followed any more: a refresh asks nothing about it, nothing comes back.
        status.refresh();
        QCOMPARE(status.moneyBackText(), QString());
        QVERIFY(!status.moneyBackButton()->isVisible());
    }

    void walletInIndianGrouping()
    {
        TerminalFixture t;
        WalletPage page(t.context);
        showActive(page);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(page, "walletBalance")->text(), QStringLiteral("₹10,000.00"),
                                  kTimeoutMs);
    }
};

QTEST_MAIN(TestUiMoneyWords)
#include "tst_ui_moneywords.moc"

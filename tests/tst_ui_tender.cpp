// Issue 28, "Tender on every sale": Cash or UPI on the sale's confirmation, typed into the real Mobile recharge
// screen against the real server (sandbox key, wallet ₹10,000.00) — the change for the cash received, F7 and the
// tender Enter keeps, the UPI QR for the exact amount (decoded back with zbarimg when it is installed), UPI without
// the shop's UPI ID, and a UPI sale that fails after PENDING: "Refund ₹… by UPI" on the result and the status bar.
#include "counterprefs.h"
#include "customerdisplay/customerdisplay.h"
#include "receipts/receiptrenderer.h"
#include "shopapi.h"
#include "statuspanel.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminal/saleresultpanel.h"
#include "terminal/statuspoller.h"
#include "terminal/tenderpanel.h"
#include "terminalfixture.h"
#include "upilink.h"
#include "widgets/digitslineedit.h"
#include "widgets/statusbadge.h"
#include "widgets/upiqrwidget.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

#include <algorithm>

namespace {

constexpr int kTimeoutMs = 10'000;
const QString kVpa = QStringLiteral("sharmamobile@okaxis");

/// Sells on `page` up to the confirmation: the number and amount typed, Jio chosen, Enter.
void typeSale(MobileRechargePage &page, const QString &number, const QString &amount)
{
    auto *numberEdit = child<QLineEdit>(page, "phoneNumber");
    QTest::keyClicks(numberEdit, number);
    // Chosen, not typed: a combo box's keyboard search joins letters typed within a moment (sales follow fast here).
    auto *operatorBox = child<QComboBox>(page, "operator");
    operatorBox->setCurrentIndex(operatorBox->findText(QStringLiteral("Jio"), Qt::MatchStartsWith));
    auto *amountEdit = child<QLineEdit>(page, "amount");
    amountEdit->setFocus();
    QTest::keyClicks(amountEdit, amount);
    QTest::keyClick(amountEdit, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
}

/// The focused widget (keys go there, as from a keyboard).
QWidget *focused()
{
    return QApplication::focusWidget();
}

/// Gives the shop a UPI ID as an admin does (PUT /api/v1/shop with a session) and lets the terminal read it.
bool setUpiId(TerminalFixture &t, const QString &vpa, const QString &payee)
{
    if (t.signInAdmin().isEmpty())
        return false;
    bool done = false;
    ShopApi(t.api)
        .update({{QStringLiteral("upi_vpa"), vpa}, {QStringLiteral("upi_payee_name"), payee}})
        .then(&t.context, [&](const Answer<ShopInfo> &answer) {
            if (answer.ok())
                t.context.applyShop(*answer.value);
            done = answer.ok();
        });
    return QTest::qWaitFor([&] { return done; }, kTimeoutMs);
}

} // namespace

class TestUiTender final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void changeText_data()
    {
        QTest::addColumn<qint64>("received");
        QTest::addColumn<qint64>("bill");
        QTest::addColumn<QString>("text");
        QTest::newRow("₹500 for ₹299") << qint64(50'000) << qint64(29'900) << QStringLiteral("Change ₹201.00");
        QTest::newRow("exact") << qint64(29'900) << qint64(29'900) << QStringLiteral("No change to give");
        QTest::newRow("short") << qint64(20'000) << qint64(29'900) << QStringLiteral("₹99.00 short");
        QTest::newRow("lakh") << qint64(20'000'000) << qint64(29'900) << QStringLiteral("Change ₹1,99,701.00");
    }
    void changeText()
    {
        QFETCH(qint64, received);
        QFETCH(qint64, bill);
        QFETCH(QString, text);
        QCOMPARE(TenderPanel::changeText(received, bill), text);
    }

    // Digits typed on the confirmation are the cash handed over; the change shows there and on the result, the
    // sale is recorded as cash, and the keys to confirm stay Enter.
    void cashReceivedShowsTheChange()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        showActive(page);
        typeSale(page, QStringLiteral("9876543210"), QStringLiteral("299"));
        SaleConfirmPanel *confirm = page.flow()->confirmPanel();
        QCOMPARE(focused(), confirm->confirmButton());
        QCOMPARE(confirm->tender(), Tender::Cash);
        QVERIFY(confirm->keysHint()->text().contains(QLatin1String("F7")));
        TenderPanel *tender = confirm->tenderPanel();
        QVERIFY(tender->changeLabel()->text().startsWith(QLatin1String("Type what the customer hands over")));
        QTest::keyClicks(focused(), QStringLiteral("2"));
        QCOMPARE(focused(), tender->cashReceivedEdit());
        QCOMPARE(tender->changeLabel()->text(), QStringLiteral("₹297.00 short"));
        QTest::keyClicks(focused(), QStringLiteral("99"));
        QCOMPARE(tender->changeLabel()->text(), QStringLiteral("No change to give"));
        QTest::keyClick(focused(), Qt::Key_Backspace);
        QTest::keyClick(focused(), Qt::Key_Backspace);
        QTest::keyClick(focused(), Qt::Key_Backspace);
        QTest::keyClicks(focused(), QStringLiteral("500"));
        QCOMPARE(tender->changeLabel()->text(), QStringLiteral("Change ₹201.00"));
        QCOMPARE(confirm->cashReceived(), std::optional<Paise>(50'000));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("SUCCESS"), kTimeoutMs);
        QCOMPARE(result->moneyLabel()->text(),
                 QStringLiteral("Collect ₹299.00 from the customer\nChange ₹201.00 (received ₹500.00)"));
        QCOMPARE(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE tender = 'cash'")), 1);
        QCOMPARE(result->record()->tender, QStringLiteral("cash"));
    }

    // F7 switches; Enter keeps the tender used last, on this terminal.
    void f7SwitchesAndEnterKeepsTheLastTender()
    {
        TerminalFixture t;
        MobileRechargePage page(t.context);
        showActive(page);
        typeSale(page, QStringLiteral("9876543210"), QStringLiteral("299"));
        SaleConfirmPanel *confirm = page.flow()->confirmPanel();
        QTest::keyClick(focused(), Qt::Key_F7);
        QCOMPARE(confirm->tender(), Tender::Upi);
        QCOMPARE(confirm->confirmButton()->text(), QStringLiteral("UPI received — confirm sale (Enter)"));
        QVERIFY(confirm->tenderPanel()->upiButton()->isChecked());
        // No UPI ID set: no QR, and what to do about it.
        QVERIFY(!confirm->tenderPanel()->qrWidget()->isVisible());
        QVERIFY(confirm->tenderPanel()->noQrLabel()->isVisible());
        QVERIFY(confirm->tenderPanel()->noQrLabel()->text().startsWith(
            QLatin1String("Set the shop's UPI ID in Settings to show a QR")));
        QVERIFY(confirm->tenderPanel()->upiNote()->text().contains(QLatin1String("cannot see the payment")));
        settleLayouts();
        screenshot(page, QStringLiteral("i28_confirm_upi_no_upi_id"));
        // Digits do not go to a cash field with UPI.
        QTest::keyClicks(focused(), QStringLiteral("5"));
        QCOMPARE(focused(), confirm->confirmButton());
        QCOMPARE(confirm->cashReceived(), std::nullopt);
        QTest::keyClick(focused(), Qt::Key_F7);
        QCOMPARE(confirm->tender(), Tender::Cash);
        QCOMPARE(confirm->confirmButton()->text(), QStringLiteral("Confirm sale (Enter)"));
        QTest::keyClick(focused(), Qt::Key_F7);
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->resultPanel()->badge()->status(), QStringLiteral("SUCCESS"), kTimeoutMs);
        QCOMPARE(page.flow()->resultPanel()->moneyLabel()->text(), QStringLiteral("Paid ₹299.00 by UPI"));
        QCOMPARE(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE tender = 'upi'")), 1);
        QCOMPARE(CounterPrefs(t.context.settings()).lastTender(), Tender::Upi);

        // The next sale starts on UPI: Enter keeps it.
        QTest::keyClick(focused(), Qt::Key_N, Qt::ControlModifier);
        typeSale(page, QStringLiteral("9876543219"), QStringLiteral("199"));
        QCOMPARE(confirm->tender(), Tender::Upi);
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE tender = 'upi'")), 2,
                                  kTimeoutMs);
    }

    // With the shop's UPI ID the QR carries the exact link: the shop's UPI ID and payee, the bill, the number and the
    // sale's reference in the note.
    void upiQrCarriesTheExactLink()
    {
        TerminalFixture t;
        QVERIFY(setUpiId(t, kVpa, QStringLiteral("Sharma Mobile")));
        MobileRechargePage page(t.context);
        showActive(page);
        typeSale(page, QStringLiteral("9876543210"), QStringLiteral("299"));
        QTest::keyClick(focused(), Qt::Key_F7);
        TenderPanel *tender = page.flow()->confirmPanel()->tenderPanel();
        QVERIFY(tender->qrWidget()->isVisible());
        QVERIFY(!tender->noQrLabel()->isVisible());
        const QString reference = page.flow()->referenceId();
        const QString link =
            QStringLiteral("upi://pay?pa=sharmamobile@okaxis&pn=Sharma%20Mobile&am=299.00&cu=INR&tn=") +
            QString::fromLatin1(QUrl::toPercentEncoding(QStringLiteral("Recharge 9876543210 ref ") + reference));
        QCOMPARE(tender->qrWidget()->text(), link);
        QCOMPARE(tender->qrWidget()->caption(), QStringLiteral("₹299.00 to Sharma Mobile"));
        // What is on the screen scans back to the link.
        const QString zbarimg = QStandardPaths::findExecutable(QStringLiteral("zbarimg"));
        if (!zbarimg.isEmpty()) {
            const QString png = t.dir.filePath(QStringLiteral("qr.png"));
            QVERIFY(tender->qrWidget()->grab().save(png));
            QProcess zbar;
            zbar.start(zbarimg, {QStringLiteral("--quiet"), QStringLiteral("--raw"), png});
            QVERIFY(zbar.waitForFinished(kTimeoutMs));
            QCOMPARE(QString::fromUtf8(zbar.readAllStandardOutput()).trimmed(), link);
        }
        QTest::keyClick(focused(), Qt::Key_Return);
        SaleResultPanel *result = page.flow()->resultPanel();
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("SUCCESS"), kTimeoutMs);

        // The receipt says how the customer paid; it prints the QR only when the terminal is set to.
        const auto hasQr = [](const ReceiptData &data) {
            const QList<ReceiptBlock> blocks = ReceiptRenderer::blocks(data, false);
            return std::any_of(blocks.cbegin(), blocks.cend(),
                               [](const ReceiptBlock &block) { return block.kind == ReceiptBlock::Kind::Qr; });
        };
        const QList<ReceiptBlock> blocks = ReceiptRenderer::blocks(result->receiptData(), false);
        QVERIFY(std::any_of(blocks.cbegin(), blocks.cend(), [](const ReceiptBlock &block) {
            return block.text == QLatin1String("Paid by") && block.value == QLatin1String("UPI");
        }));
        QVERIFY(!hasQr(result->receiptData()));
        t.context.settings().setValue(QStringLiteral("receipts/print_upi_qr"), true);
        const ReceiptData data = result->receiptData();
        QCOMPARE(data.upiLink, link);
        QVERIFY(hasQr(data));
        if (!zbarimg.isEmpty()) {
            const QString png = t.dir.filePath(QStringLiteral("receipt.png"));
            QVERIFY(ReceiptRenderer().toImage(data, ReceiptWidth::Mm58, false).save(png));
            QProcess zbar;
            zbar.start(zbarimg, {QStringLiteral("--quiet"), QStringLiteral("--raw"), png});
            QVERIFY(zbar.waitForFinished(kTimeoutMs));
            QCOMPARE(QString::fromUtf8(zbar.readAllStandardOutput()).trimmed(), link);
        }
    }

    // Paid by UPI, then the operator failed it: the money goes back by UPI — on the result panel, and in the status
    // bar for a sale the clerk left PENDING.
    void upiFailedAfterPendingSaysRefundByUpi()
    {
        TerminalFixture t;
        QMainWindow window;
        auto *page = new MobileRechargePage(t.context);
        window.setCentralWidget(page);
        StatusPanel status(t.context, window.statusBar());
        window.resize(1366, 768);
        showActive(window);
        page->flow()->poller()->setFirstDelayMs(60'000); // PENDING until the test asks
        typeSale(*page, QStringLiteral("9876542222"), QStringLiteral("299"));
        QTest::keyClick(focused(), Qt::Key_F7);
        QTest::keyClick(focused(), Qt::Key_Return);
        SaleResultPanel *result = page->flow()->resultPanel();
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("PENDING"), kTimeoutMs);
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Paid ₹299.00 by UPI"));
        QVERIFY(result->adviceLabel()->text().contains(QLatin1String("refund the customer by UPI")));
        QTRY_COMPARE_WITH_TIMEOUT(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'FAILED'")), 1,
                                  kTimeoutMs);
        page->flow()->poller()->checkNow();
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("FAILED"), kTimeoutMs);
        QCOMPARE(result->moneyLabel()->text(), QStringLiteral("Refund ₹299.00 by UPI to the customer"));
        QVERIFY(result->adviceLabel()->text().contains(QLatin1String("shop's UPI app")));

        // The same, left PENDING: the status bar's line says UPI.
        QTest::keyClick(focused(), Qt::Key_N, Qt::ControlModifier);
        typeSale(*page, QStringLiteral("9876552222"), QStringLiteral("199"));
        QCOMPARE(page->flow()->confirmPanel()->tender(), Tender::Upi); // kept from the last sale
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("PENDING"), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(t.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'FAILED'")), 2,
                                  kTimeoutMs);
        QTest::mouseClick(result->newSaleButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(status.moneyBackText(),
                                  QStringLiteral("Refund ₹199.00 by UPI to the customer of 98765 52222 (sale 2)"),
                                  kTimeoutMs);
        QCOMPARE(status.moneyBackButton()->text(), QStringLiteral("Refunded"));
    }

    // A kiosk on one screen has no customer window: the customer's panel is part of the confirmation, with the QR.
    void kioskConfirmationShowsTheCustomerPanel()
    {
        SeededShop shop;
        {
            HttpClient http;
            const HttpResult signIn = http.postJson(
                shop.server.url(QStringLiteral("/api/v1/users/sign-in")),
                {{QStringLiteral("name"), QStringLiteral("Asha")}, {QStringLiteral("pin"), QStringLiteral("482193")}},
                shop.auth());
            const QByteArray session = signIn.data().value(QStringLiteral("session_token")).toString().toLatin1();
            QCOMPARE(http.sendJson("PUT", shop.server.url(QStringLiteral("/api/v1/shop")), shop.auth(),
                                   {{QStringLiteral("upi_vpa"), kVpa}}, session)
                         .status,
                     200);
        }
        std::unique_ptr<MainWindow> window = openSignedIn(shop, true, QSize(1366, 768));
        QVERIFY(window);
        QVERIFY(!window->customerDisplay());
        QVERIFY(window->context()->customerPanelOnConfirm());
        auto *page = qobject_cast<MobileRechargePage *>(window->terminalView()->screen(QStringLiteral("mobile")));
        QVERIFY(window->terminalView()->showScreen(QStringLiteral("mobile")));
        QTRY_VERIFY_WITH_TIMEOUT(!window->context()->shop().upiVpa.isEmpty(), kTimeoutMs); // read after sign-in
        typeSale(*page, QStringLiteral("9876543210"), QStringLiteral("299"));
        SaleConfirmPanel *confirm = page->flow()->confirmPanel();
        auto *customer = confirm->findChild<CustomerDisplayPanel *>();
        QVERIFY(customer && customer->isVisible());
        QCOMPARE(customer->state().stage, CustomerDisplayState::Stage::ToPay);
        QCOMPARE(customer->state().amount, Paise(29'900));
        QTest::keyClick(focused(), Qt::Key_F7);
        QCOMPARE(customer->state().tender, QStringLiteral("upi"));
        auto *qr = customer->findChild<UpiQrWidget *>();
        QVERIFY(qr && qr->isVisible());
        QVERIFY(qr->text().startsWith(QLatin1String("upi://pay?pa=sharmamobile@okaxis&")));
        QVERIFY(!confirm->tenderPanel()->qrWidget()->isVisible()); // one QR, the customer's
        settleLayouts();
        // Large enough to scan from 40 cm: never under the widget's least side.
        auto *code = qr->findChild<QWidget *>(QStringLiteral("upiQrCode"));
        QTRY_VERIFY2_WITH_TIMEOUT(
            std::min(code->width(), code->height()) >= qr->minimumCodeSide(),
            qPrintable(QStringLiteral("%1x%2 < %3").arg(code->width()).arg(code->height()).arg(qr->minimumCodeSide())),
            kTimeoutMs);
        settleLayouts();
        screenshot(*window, QStringLiteral("i28_kiosk_confirm_upi"));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page->flow()->resultPanel()->badge()->status(), QStringLiteral("SUCCESS"),
                                  kTimeoutMs);
    }
};

QTEST_MAIN(TestUiTender)
#include "tst_ui_tender.moc"

// Issue 28, "Shifts" at the counter: a whole shift typed from the keyboard into the real terminal window over the
// real server — open with ₹2,000, two cash sales (one with the cash received and the change shown), one UPI sale
// with its QR on the confirmation and on the customer display, ₹100 paid out with the PIN, a count that differs and
// the difference shown — plus a restarted window resuming the open shift, the server's 409 no_open_shift opening
// the dialog, and a clerk's blind count. The cash drawer is a file: it receives the ESC/POS pulse.
#include "counterprefs.h"
#include "customerdisplay/customerdisplay.h"
#include "keyboard.h"
#include "receipts/cashdrawer.h"
#include "shift/cashmovedialog.h"
#include "shift/closeshiftdialog.h"
#include "shift/openshiftdialog.h"
#include "shift/shiftcloseddialog.h"
#include "shift/shiftcontroller.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminal/saleresultpanel.h"
#include "terminal/tenderpanel.h"
#include "terminalfixture.h"
#include "upilink.h"
#include "widgets/digitslineedit.h"
#include "widgets/statusbadge.h"
#include "widgets/upiqrwidget.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 10'000;
const QString kVpa = QStringLiteral("sharmamobile@okaxis");
const QString kPayee = QStringLiteral("Sharma Mobile Point");
const QString kAdminPin = QStringLiteral("482193");

/// A seeded shop (admin Asha) whose terminal is "Counter 1", with a cash drawer that is a file and the customer
/// display on screen 0; HTTP helpers for what an admin sets up in the back office.
struct ShiftShop
{
    ShiftShop()
    {
        QSettings prefs(shop.options.settingsPath, QSettings::IniFormat);
        prefs.setValue(QStringLiteral("counter/terminal_name"), QStringLiteral("Counter 1"));
        prefs.setValue(QStringLiteral("counter/cash_drawer"), drawerPath());
        prefs.setValue(QStringLiteral("counter/customer_display_screen"), 0);
        QFile drawer(drawerPath()); // the "device" exists (CashDrawer never creates one)
        if (!drawer.open(QIODevice::WriteOnly))
            qFatal("cannot create %s", qPrintable(drawerPath()));
    }

    QString drawerPath() const { return shop.dir.filePath(QStringLiteral("drawer.bin")); }
    QByteArray drawerBytes() const
    {
        QFile file(drawerPath());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    /// A session of the admin Asha, over HTTP.
    QByteArray adminSession()
    {
        const HttpResult result = http.postJson(
            shop.server.url(QStringLiteral("/api/v1/users/sign-in")),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("Asha")}, {QStringLiteral("pin"), kAdminPin}},
            shop.auth());
        return result.data().value(QStringLiteral("session_token")).toString().toLatin1();
    }
    /// PUT /api/v1/shop as the admin; the HTTP status.
    int putShop(const QJsonObject &changes)
    {
        return http
            .sendJson("PUT", shop.server.url(QStringLiteral("/api/v1/shop")), shop.auth(), changes, adminSession())
            .status;
    }
    /// Shifts on, the shop's UPI ID and payee set.
    bool turnShiftsOn(bool blind = false)
    {
        return putShop({{QStringLiteral("shifts_enabled"), true},
                        {QStringLiteral("blind_count"), blind},
                        {QStringLiteral("upi_vpa"), kVpa},
                        {QStringLiteral("upi_payee_name"), kPayee}}) == 200;
    }
    /// A clerk `name` with `pin`, added by the admin; the HTTP status.
    int addClerk(const QString &name, const QString &pin)
    {
        return http
            .sendJson("POST", shop.server.url(QStringLiteral("/api/v1/users")), shop.auth(),
                      {{QStringLiteral("name"), name},
                       {QStringLiteral("role"), QStringLiteral("clerk")},
                       {QStringLiteral("pin"), pin}},
                      adminSession())
            .status;
    }
    qint64 sql(const QString &select)
    {
        QSqlQuery &query = shop.server.db().run(select, {});
        const qint64 value = query.next() ? query.value(0).toLongLong() : -1;
        query.finish();
        return value;
    }

    SeededShop shop;
    HttpClient http;
};

/// The shift dialog of `window` once it is shown, as a `T`.
template <class T> T *shiftDialog(MainWindow &window)
{
    T *dialog = nullptr;
    if (!QTest::qWaitFor([&] { return (dialog = qobject_cast<T *>(window.shifts()->dialog())) != nullptr; },
                         kTimeoutMs))
        qWarning("no %s", T::staticMetaObject.className());
    return dialog;
}

QWidget *focused()
{
    return QApplication::focusWidget();
}

/// The visible labels' texts under `widget`, one string.
QString visibleText(QWidget *widget)
{
    QStringList out;
    for (QLabel *label : widget->findChildren<QLabel *>()) {
        if (label->isVisibleTo(widget) && !label->text().isEmpty())
            out << label->text();
    }
    return out.join(u'\n');
}

/// The mobile recharge screen of `window`.
MobileRechargePage *mobile(MainWindow &window)
{
    return qobject_cast<MobileRechargePage *>(window.terminalView()->screen(QStringLiteral("mobile")));
}

/// Types a mobile sale up to its confirmation as a clerk does: the number, Tab, the operator's first letter (Jio),
/// Tab, the circle's (Karnataka), Tab, the amount, Enter.
void typeSale(Keyboard &keys, MainWindow &window, const QString &number, const QString &amount)
{
    QCOMPARE(focused()->objectName(), QStringLiteral("phoneNumber"));
    keys.type(number);
    keys.press(Qt::Key_Tab);
    keys.type(QStringLiteral("J"));
    keys.press(Qt::Key_Tab);
    if (mobile(window)->findChild<QComboBox *>(QStringLiteral("circle"))->currentIndex() < 0)
        keys.type(QStringLiteral("K")); // the first sale; the next ones start on the circle remembered
    keys.press(Qt::Key_Tab);
    QCOMPARE(focused()->objectName(), QStringLiteral("amount"));
    keys.type(amount);
    keys.press(Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(mobile(window)->flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
}

bool saleSucceeded(MainWindow &window)
{
    SaleFlow *flow = mobile(window)->flow();
    return flow->stage() == SaleFlow::Stage::Result &&
           flow->resultPanel()->badge()->status() == QLatin1String("SUCCESS");
}

} // namespace

class TestUiShift final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(applyTerminalStyle());
        // A combo box joins the letters typed within this interval into one search ("JJ" finds nothing): a clerk
        // takes longer between two sales than this test does.
        QApplication::setKeyboardInputInterval(0);
    }

    void wholeShiftFromTheKeyboard()
    {
        ShiftShop s;
        QVERIFY(s.turnShiftsOn());
        std::unique_ptr<MainWindow> window = openSignedIn(s.shop, false, QSize(1366, 768));
        QVERIFY(window);
        Keyboard keys(*window);
        CustomerDisplayWindow *display = window->customerDisplay();
        QVERIFY(display);

        // Signed in without a shift: the terminal asks for the opening cash before selling.
        auto *open = shiftDialog<OpenShiftDialog>(*window);
        QVERIFY(open);
        QVERIFY(visibleText(open).contains(QLatin1String("Asha at terminal Counter 1")));
        QTRY_COMPARE_WITH_TIMEOUT(focused(), static_cast<QWidget *>(open->openingCashEdit()), kTimeoutMs);
        screenshot(*open, QStringLiteral("i28_open_shift"));
        keys.type(QStringLiteral("2000"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window->context()->currentShift().has_value(), kTimeoutMs);
        const Shift opened = *window->context()->currentShift();
        QCOMPARE(opened.openingCash, Paise(200'000));
        QCOMPARE(opened.terminal, QStringLiteral("Counter 1"));
        QTRY_VERIFY_WITH_TIMEOUT(!window->shifts()->dialog(), kTimeoutMs);
        QVERIFY2(window->shifts()->statusText().startsWith(QLatin1String("Shift: Asha since ")),
                 qPrintable(window->shifts()->statusText()));
        QVERIFY(window->shifts()->statusText().endsWith(QLatin1String("(Counter 1)")));
        QCOMPARE(window->shifts()->shiftButton()->text(), QStringLiteral("Close shift (F10)"));

        // Sale 1, cash: ₹500 handed over for ₹299 — typed on the confirmation, the change shows.
        keys.press(Qt::Key_F3);
        typeSale(keys, *window, QStringLiteral("9876500001"), QStringLiteral("299"));
        SaleConfirmPanel *confirm = mobile(*window)->flow()->confirmPanel();
        QCOMPARE(confirm->tender(), Tender::Cash);
        QCOMPARE(display->panel()->state().stage, CustomerDisplayState::Stage::ToPay);
        QCOMPARE(display->panel()->state().tender, QStringLiteral("cash"));
        keys.type(QStringLiteral("500"));
        QCOMPARE(confirm->tenderPanel()->cashReceivedEdit()->text(), QStringLiteral("500"));
        QCOMPARE(confirm->tenderPanel()->changeLabel()->text(), QStringLiteral("Change ₹201.00"));
        settleLayouts();
        screenshot(*window, QStringLiteral("i28_confirm_cash_change"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(saleSucceeded(*window), kTimeoutMs);
        QVERIFY(mobile(*window)->flow()->resultPanel()->moneyLabel()->text().contains(
            QStringLiteral("Change ₹201.00 (received ₹500.00)")));
        // The drawer opened for the cash: the pulse reached its "device".
        QTRY_COMPARE_WITH_TIMEOUT(s.drawerBytes(), CashDrawer::pulseCommand(), kTimeoutMs);
        QCOMPARE(display->panel()->state().stage, CustomerDisplayState::Stage::Recharged);

        // Sale 2, cash, nothing typed: as many keys as before issue 28.
        keys.press(Qt::Key_F8);
        keys.reset();
        typeSale(keys, *window, QStringLiteral("9876500002"), QStringLiteral("199"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(saleSucceeded(*window), kTimeoutMs);
        QCOMPARE(keys.count(), 10 + 1 + 1 + 1 + 1 + 3 + 2); // number, Tab, J, Tab, Tab, amount, Enter, Enter
        QTRY_COMPARE_WITH_TIMEOUT(s.drawerBytes(), CashDrawer::pulseCommand().repeated(2), kTimeoutMs);

        // Sale 3, UPI: F7 at the confirmation shows the QR for the exact amount, here and on the customer display.
        keys.press(Qt::Key_F8);
        typeSale(keys, *window, QStringLiteral("9876500003"), QStringLiteral("399"));
        keys.press(Qt::Key_F7);
        QCOMPARE(confirm->tender(), Tender::Upi);
        QCOMPARE(confirm->confirmButton()->text(), QStringLiteral("UPI received — confirm sale (Enter)"));
        const QString link =
            UpiLink::build(kVpa, kPayee, 39'900,
                           UpiLink::saleNote(QStringLiteral("9876500003"), mobile(*window)->flow()->referenceId()));
        QVERIFY(link.contains(QLatin1String("am=399.00")));
        UpiQrWidget *qr = confirm->tenderPanel()->qrWidget();
        QVERIFY(qr->isVisible());
        QCOMPARE(qr->text(), link);
        QVERIFY(confirm->tenderPanel()->upiNote()->isVisible());
        QVERIFY(confirm->tenderPanel()->upiNote()->text().contains(QLatin1String("cannot see the payment")));
        QCOMPARE(display->panel()->state().stage, CustomerDisplayState::Stage::ToPay);
        QCOMPARE(display->panel()->state().tender, QStringLiteral("upi"));
        QCOMPARE(display->panel()->state().upiLink, link);
        auto *displayQr = display->findChild<UpiQrWidget *>();
        QVERIFY(displayQr && displayQr->isVisibleTo(display));
        QCOMPARE(displayQr->text(), link);
        const QString customerSees = visibleText(display);
        QVERIFY2(customerSees.contains(QStringLiteral("₹399.00")), qPrintable(customerSees));
        QVERIFY2(customerSees.contains(QLatin1String("Jio")), qPrintable(customerSees));
        QVERIFY2(!customerSees.contains(QLatin1String("commission"), Qt::CaseInsensitive), qPrintable(customerSees));
        QVERIFY2(!customerSees.contains(QLatin1String("Wallet")), qPrintable(customerSees));
        settleLayouts();
        screenshot(*window, QStringLiteral("i28_confirm_upi_qr"));
        screenshot(*display, QStringLiteral("i28_customer_display_upi"));
        const QByteArray drawerBefore = s.drawerBytes();
        keys.press(Qt::Key_Return); // UPI received
        QTRY_VERIFY_WITH_TIMEOUT(saleSucceeded(*window), kTimeoutMs);
        QCOMPARE(mobile(*window)->flow()->resultPanel()->moneyLabel()->text(), QStringLiteral("Paid ₹399.00 by UPI"));
        QCOMPARE(s.drawerBytes(), drawerBefore); // no cash, no drawer
        QCOMPARE(CounterPrefs(window->context()->settings()).lastTender(), Tender::Upi);

        // ₹100 paid out, confirmed with the PIN: F9, amount, Enter, the reason (the list's first), Enter, PIN, Enter.
        keys.press(Qt::Key_F9);
        auto *move = shiftDialog<CashMoveDialog>(*window);
        QVERIFY(move);
        QTRY_COMPARE_WITH_TIMEOUT(focused(), static_cast<QWidget *>(move->amountEdit()), kTimeoutMs);
        QVERIFY(move->outButton()->isChecked());
        keys.type(QStringLiteral("100"));
        keys.press(Qt::Key_Return);
        QCOMPARE(focused(), move->reasonBox());
        QCOMPARE(move->reason(), QStringLiteral("Paid a supplier"));
        keys.press(Qt::Key_Return);
        QCOMPARE(focused(), move->pinEdit()); // "Other reason" is off for a listed reason
        keys.type(QStringLiteral("111111"));
        screenshot(*move, QStringLiteral("i28_cash_move"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(move->findChild<QLabel *>(QStringLiteral("error_pin"))->isVisible(), kTimeoutMs);
        QCOMPARE(window->context()->currentShift()->cashOut, Paise(0)); // a wrong PIN moved nothing
        QCOMPARE(focused(), move->pinEdit());
        keys.type(kAdminPin);
        keys.press(Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window->context()->currentShift()->cashOut, Paise(10'000), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(s.drawerBytes(), CashDrawer::pulseCommand().repeated(3), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!window->shifts()->dialog(), kTimeoutMs);

        // The terminal restarts (a new window on the same server): the open shift is resumed, nothing asked.
        {
            std::unique_ptr<MainWindow> again = openSignedIn(s.shop, false, QSize(1366, 768));
            QVERIFY(again);
            QTRY_VERIFY_WITH_TIMEOUT(again->shifts()->isReady(), kTimeoutMs);
            QVERIFY(again->context()->currentShift().has_value());
            QCOMPARE(again->context()->currentShift()->id, opened.id);
            QCOMPARE(again->context()->currentShift()->cashOut, Paise(10'000));
            QVERIFY(!again->shifts()->dialog());
            QCOMPARE(again->shifts()->statusText(), window->shifts()->statusText());
        }
        QApplication::setActiveWindow(window.get());
        QVERIFY(QTest::qWaitForWindowActive(window.get()));

        // Close: F10, the count by denomination with Enter between lines — ₹2,350 where ₹2,398 is expected.
        keys.press(Qt::Key_F10);
        auto *close = shiftDialog<CloseShiftDialog>(*window);
        QVERIFY(close);
        QTRY_COMPARE_WITH_TIMEOUT(close->expectedLabel()->text(), QStringLiteral("Expected in the drawer: ₹2,398.00"),
                                  kTimeoutMs); // 2,000 + 299 + 199 cash sales − 100 paid out; the UPI sale is not cash
        QVERIFY2(close->summaryLabel()->text().contains(QStringLiteral("UPI ₹399.00 (1)")),
                 qPrintable(close->summaryLabel()->text()));
        QTRY_COMPARE_WITH_TIMEOUT(focused(), static_cast<QWidget *>(close->countEdit(500)), kTimeoutMs);
        keys.type(QStringLiteral("4"));
        keys.press(Qt::Key_Return);
        keys.type(QStringLiteral("1"));
        keys.press(Qt::Key_Return);
        keys.type(QStringLiteral("1"));
        keys.press(Qt::Key_Return);
        keys.type(QStringLiteral("1"));
        keys.press(Qt::Key_Return);
        keys.press(Qt::Key_Return); // no ₹20 notes
        keys.press(Qt::Key_Return); // no ₹10 notes
        QCOMPARE(focused(), close->coinsEdit());
        keys.press(Qt::Key_Return); // no coins
        QCOMPARE(focused(), close->noteEdit());
        QCOMPARE(close->countedLabel()->text(), QStringLiteral("Counted: ₹2,350.00"));
        QCOMPARE(close->differenceLabel()->text(), QStringLiteral("Difference: Short ₹48.00"));
        QTRY_COMPARE_WITH_TIMEOUT(s.drawerBytes(), CashDrawer::pulseCommand().repeated(4), kTimeoutMs); // for the count
        keys.type(QStringLiteral("Counted twice"));
        settleLayouts();
        screenshot(*close, QStringLiteral("i28_close_shift"));
        keys.press(Qt::Key_Return);

        // The answer: the shift closed, the difference and the report; S signs out.
        auto *closed = shiftDialog<ShiftClosedDialog>(*window);
        QVERIFY(closed);
        QVERIFY2(closed->differenceLabel()->text().contains(QStringLiteral("Short ₹48.00")),
                 qPrintable(closed->differenceLabel()->text()));
        QVERIFY(!window->context()->currentShift());
        QCOMPARE(s.sql(QStringLiteral("SELECT counted_cash_paise FROM shifts")), 235'000);
        QCOMPARE(
            s.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE tender = 'cash' AND shift_id IS NOT NULL")),
            2);
        QCOMPARE(
            s.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE tender = 'upi' AND shift_id IS NOT NULL")),
            1);
        const QString report = visibleText(closed);
        QVERIFY2(report.contains(QLatin1String("Counted twice")), qPrintable(report));
        settleLayouts();
        screenshot(*closed, QStringLiteral("i28_shift_closed"));
        QTest::keyClick(focused(), Qt::Key_S);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(*window), static_cast<QWidget *>(window->signInPage()), kTimeoutMs);
        QVERIFY(window->context()->user().name.isEmpty());
    }

    // The terminal did not know the shop turned shifts on (its settings were read before): the server's 409
    // no_open_shift brings the open-shift dialog up, the sale waits on its confirmation and goes once a shift is open.
    void noOpenShiftFromTheServerAsksForOne()
    {
        ShiftShop s;
        std::unique_ptr<MainWindow> window = openSignedIn(s.shop, false, QSize(1366, 768));
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(window->shifts()->isReady(), kTimeoutMs);
        QVERIFY(!window->shifts()->dialog());
        QCOMPARE(window->shifts()->statusText(), QString()); // shifts off, none open: nothing shown
        QVERIFY(s.turnShiftsOn());
        Keyboard keys(*window);
        keys.press(Qt::Key_F3);
        typeSale(keys, *window, QStringLiteral("9876500004"), QStringLiteral("149"));
        keys.press(Qt::Key_Return);
        auto *open = shiftDialog<OpenShiftDialog>(*window);
        QVERIFY(open);
        SaleFlow *flow = mobile(*window)->flow();
        QCOMPARE(flow->stage(), SaleFlow::Stage::Confirm);
        QVERIFY(flow->confirmPanel()->problemLabel()->text().contains(QLatin1String("open a shift")));
        QCOMPARE(s.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE number = '9876500004'")), 0);
        keys.type(QStringLiteral("500"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window->context()->currentShift().has_value(), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(focused(), static_cast<QWidget *>(flow->confirmPanel()->confirmButton()), kTimeoutMs);
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(saleSucceeded(*window), kTimeoutMs);
        QCOMPARE(s.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE number = '9876500004' AND shift_id = ") +
                       QString::number(window->context()->currentShift()->id)),
                 1);
    }

    // A clerk in a shop that counts blind sees neither the expected cash nor the difference until the close answers.
    void clerkCountsBlind()
    {
        ShiftShop s;
        QVERIFY(s.turnShiftsOn(true));
        QCOMPARE(s.addClerk(QStringLiteral("Ravi"), QStringLiteral("135790")), 201);
        auto window = std::make_unique<MainWindow>(s.shop.windowOptions(false));
        window->resize(1366, 768);
        window->show();
        QApplication::setActiveWindow(window.get());
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        signIn(*window, QStringLiteral("Ravi"), QStringLiteral("135790"));
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(*window), static_cast<QWidget *>(window->terminalView()), kTimeoutMs);
        Keyboard keys(*window);
        auto *open = shiftDialog<OpenShiftDialog>(*window);
        QVERIFY(open);
        keys.type(QStringLiteral("1000"));
        keys.press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window->context()->currentShift().has_value(), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!window->shifts()->dialog(), kTimeoutMs);

        keys.press(Qt::Key_F10);
        auto *close = shiftDialog<CloseShiftDialog>(*window);
        QVERIFY(close);
        QTRY_COMPARE_WITH_TIMEOUT(focused(), static_cast<QWidget *>(close->countEdit(500)), kTimeoutMs);
        QVERIFY(close->expectedLabel()->text().startsWith(QLatin1String("Blind count")));
        keys.type(QStringLiteral("1"));
        QCOMPARE(close->countedLabel()->text(), QStringLiteral("Counted: ₹500.00"));
        QVERIFY(!close->differenceLabel()->isVisible());
        QVERIFY2(!visibleText(close).contains(QLatin1String("Expected in the drawer")), qPrintable(visibleText(close)));
        QVERIFY2(!visibleText(close).contains(QLatin1String("Difference")), qPrintable(visibleText(close)));
        QVERIFY2(!visibleText(close).contains(QStringLiteral("₹1,000.00")), qPrintable(visibleText(close)));
        settleLayouts();
        screenshot(*close, QStringLiteral("i28_close_shift_blind"));
        close->acceptButton()->click();
        auto *closed = shiftDialog<ShiftClosedDialog>(*window);
        QVERIFY(closed);
        // ₹500 counted where ₹1,000 was expected: shown now.
        QVERIFY2(closed->differenceLabel()->text().contains(QStringLiteral("Short ₹500.00")),
                 qPrintable(closed->differenceLabel()->text()));
        QVERIFY(closed->differenceLabel()->text().contains(QStringLiteral("expected ₹1,000.00")));
        // N opens the next shift.
        QTest::keyClick(focused(), Qt::Key_N);
        QVERIFY(shiftDialog<OpenShiftDialog>(*window));
    }
};

QTEST_MAIN(TestUiShift)
#include "tst_ui_shift.moc"

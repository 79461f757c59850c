// The terminal at the most common shop and kiosk screens (issue 10, "The kiosk holds at 1366×768"):
// every screen fits 1366×768 and 1280×720 in kiosk and normal mode, the kiosk window is frameless
// full screen and comes back from a minimize, and the small layout faults seen at 1366 px are gone.
// Runs with TZ=UTC (set in main() before anything reads it) so machine time and IST differ.
#include "apierror.h"
#include "backoffice/backofficeview.h"
#include "backoffice/historydetailpane.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "mainwindow.h"
#include "operatorcatalog.h"
#include "services/historyseeder.h"
#include "signinpage.h"
#include "store/accountrepository.h"
#include "terminalview.h"
#include "testserver.h"
#include "users/shopsetup.h"

#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QTest>

#include <cstdio>
#include <ctime>

namespace {

constexpr int kTimeoutMs = 10'000;

/// The shop as `rechargedesk setup` leaves it (admin Asha, PIN 4821) with some seeded history.
struct Shop
{
    Shop()
    {
        SystemClock clock;
        key = ShopSetup::run(server.db(), clock,
                             ShopSetupParams{QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road"),
                                             QStringLiteral("Asha"), QStringLiteral("4821"), QString()});
        const std::optional<qint64> account = AccountRepository(server.db()).findAccount(QStringLiteral("shop"));
        HistorySeeder(server.db(), OperatorCatalog::builtIn())
            .seed(*account, Mode::Test, 200, QDateTime::currentMSecsSinceEpoch(), {QStringLiteral("Asha")}, 1, {});
    }

    TerminalOptions options(bool kiosk) const
    {
        TerminalOptions options;
        options.serverUrl = server.baseUrl();
        options.keyId = key.keyId;
        options.keySecret = key.secret;
        options.kiosk = kiosk;
        options.settingsPath = dir.filePath(QStringLiteral("prefs.ini"));
        options.idleLockSeconds = 3600;
        return options;
    }

    QTemporaryDir dir;
    TestServer server;
    CreatedKey key;
};

QWidget *currentPage(MainWindow &window)
{
    return qobject_cast<QStackedWidget *>(window.centralWidget())->currentWidget();
}

void signIn(MainWindow &window)
{
    const QList<QLineEdit *> edits = window.signInPage()->findChildren<QLineEdit *>();
    edits.at(0)->setText(QStringLiteral("Asha"));
    QTest::keyClicks(edits.at(1), QStringLiteral("4821"));
    QTest::keyClick(edits.at(1), Qt::Key_Return);
}

/// Names the widgets that ask for the most height (or width) under `widget`, deepest first: where a
/// too-large minimum size comes from.
QString culprits(QWidget *widget, int depth = 0)
{
    QString out = QStringLiteral("%1%2 (%3) min %4×%5\n")
                      .arg(QString(depth * 2, QLatin1Char(' ')), QLatin1String(widget->metaObject()->className()),
                           widget->objectName())
                      .arg(widget->minimumSizeHint().width())
                      .arg(widget->minimumSizeHint().height());
    if (depth > 14)
        return out;
    QWidget *tallest = nullptr;
    QWidget *widest = nullptr;
    for (QWidget *kid : widget->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        // A stacked widget's hidden pages count too: its minimum is that of its largest page.
        if (kid->isWindow() || (kid->isHidden() && !qobject_cast<QStackedWidget *>(widget)))
            continue;
        if (!tallest || kid->minimumSizeHint().height() > tallest->minimumSizeHint().height())
            tallest = kid;
        if (!widest || kid->minimumSizeHint().width() > widest->minimumSizeHint().width())
            widest = kid;
    }
    if (tallest)
        out += culprits(tallest, depth + 1);
    if (widest && widest != tallest)
        out += culprits(widest, depth + 1);
    return out;
}

/// Whether all of the label's text shows: on one line within its width, or wrapped within its height.
bool textFits(const QLabel *label)
{
    const QRect room = label->contentsRect();
    if (label->wordWrap())
        return label->heightForWidth(label->width()) <= label->height();
    return label->fontMetrics().horizontalAdvance(label->text()) <= room.width();
}

bool fits(MainWindow &window, const QSize &screen, QString *why)
{
    const QSize minimum = window.minimumSizeHint();
    if (minimum.width() <= screen.width() && minimum.height() <= screen.height())
        return true;
    *why = QStringLiteral("needs %1×%2\n").arg(minimum.width()).arg(minimum.height()) + culprits(&window);
    return false;
}

} // namespace

class TestUiLayout final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QFile style(QStringLiteral(":/ui/style.qss"));
        QVERIFY(style.open(QIODevice::ReadOnly));
        qApp->setStyleSheet(QString::fromUtf8(style.readAll()));
    }

    void everyScreenFits_data()
    {
        QTest::addColumn<bool>("kiosk");
        QTest::addColumn<QSize>("screen");
        QTest::newRow("kiosk 1366x768") << true << QSize(1366, 768);
        QTest::newRow("kiosk 1280x720") << true << QSize(1280, 720);
        QTest::newRow("desktop 1366x768") << false << QSize(1366, 768);
        QTest::newRow("desktop 1280x720") << false << QSize(1280, 720);
    }

    void everyScreenFits()
    {
        QFETCH(bool, kiosk);
        QFETCH(QSize, screen);
        Shop shop;
        MainWindow window(shop.options(kiosk));
        window.resize(screen);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList faults;
        const auto check = [&](const QString &where) {
            QString why;
            if (!fits(window, screen, &why))
                faults << where + QLatin1Char(' ') + why;
        };
        check(QStringLiteral("sign-in"));
        signIn(window);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), kTimeoutMs);
        for (const char *id : {"verify", "plans", "mobile", "dth", "voucher", "backoffice"}) {
            QVERIFY(window.terminalView()->showScreen(QLatin1String(id)));
            check(QLatin1String(id));
        }
        auto *backOffice = window.terminalView()->findChild<BackOfficeView *>();
        QVERIFY(backOffice);
        auto *table = backOffice->findChild<QTableView *>(QStringLiteral("historyTable"));
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() > 0, kTimeoutMs);
        table->selectRow(0);
        auto *detail = backOffice->findChild<HistoryDetailPane *>();
        QTRY_VERIFY_WITH_TIMEOUT(!detail->record().isEmpty(), kTimeoutMs);
        check(QStringLiteral("history with a sale selected"));
        for (int tab = 0; tab < backOffice->count(); ++tab) {
            backOffice->setCurrentIndex(tab);
            check(backOffice->tabText(tab));
        }
        for (const QString &fault : std::as_const(faults))
            std::fprintf(stderr, "%s\n", qPrintable(fault)); // the whole chain: QVERIFY2 cuts long messages
        QVERIFY2(faults.isEmpty(), qPrintable(faults.join(QLatin1Char('\n'))));
    }

    void kioskIsFramelessFullScreenAndComesBack()
    {
        Shop shop;
        MainWindow window(shop.options(true));
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.windowFlags().testFlag(Qt::FramelessWindowHint));
        QVERIFY(window.isFullScreen());
        // The window manager minimizes it (a keyboard shortcut, a panel): it comes straight back.
        window.showMinimized();
        QTRY_VERIFY_WITH_TIMEOUT(window.isFullScreen() && !window.isMinimized() && window.isVisible(), kTimeoutMs);
        window.showNormal();
        QTRY_VERIFY_WITH_TIMEOUT(window.isFullScreen(), kTimeoutMs);

        // A desktop terminal stays an ordinary window.
        MainWindow desktop(shop.options(false));
        desktop.show();
        QVERIFY(QTest::qWaitForWindowExposed(&desktop));
        QVERIFY(!desktop.windowFlags().testFlag(Qt::FramelessWindowHint));
        desktop.showMinimized();
        QTest::qWait(50);
        QVERIFY(desktop.isMinimized());
    }

    void lockTitleIsWhole_data()
    {
        QTest::addColumn<bool>("kiosk");
        QTest::newRow("kiosk") << true;
        QTest::newRow("desktop") << false;
    }

    void lockTitleIsWhole()
    {
        QFETCH(bool, kiosk);
        Shop shop;
        MainWindow window(shop.options(kiosk));
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        signIn(window);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), kTimeoutMs);
        QTest::keyClick(window.terminalView(), Qt::Key_L, Qt::ControlModifier);
        QTRY_COMPARE(currentPage(window), window.signInPage());
        auto *title = window.signInPage()->findChild<QLabel *>(QStringLiteral("pageTitle"));
        QVERIFY(title->text().startsWith(QStringLiteral("Locked")));
        QTRY_VERIFY2(textFits(title), qPrintable(QStringLiteral("%1 px of text in %2×%3 hfw %4")
                                                     .arg(title->heightForWidth(title->width()))
                                                     .arg(title->fontMetrics().horizontalAdvance(title->text()))
                                                     .arg(title->width())
                                                     .arg(title->height())));
    }
};

int main(int argc, char **argv)
{
    // Machine time in UTC, as on many kiosks: anything shown in machine time would differ from IST.
    qputenv("TZ", "UTC");
    tzset();
    QApplication app(argc, argv);
    TestUiLayout test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_ui_layout.moc"

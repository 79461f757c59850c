#include "apiclient.h"
#include "backoffice/dayendpage.h"
#include "clock.h"
#include "operatorcatalog.h"
#include "receipts/dayendprint.h"
#include "receipts/dayendreportmodel.h"
#include "services/historyseeder.h"
#include "store/accountrepository.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "testserver.h"

#include <QApplication>
#include <QDateEdit>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPointer>
#include <QPrintPreviewDialog>
#include <QPrintPreviewWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

namespace {

constexpr int kTimeoutMs = 10'000;

/// The real server with 2,000 seeded sales over two years, an admin key, client and context.
struct Shop : TerminalFixture
{
    Shop() { seedHistory(2000); }
};

qint64 istMidnightMs(const QDate &date)
{
    return QDateTime(date, QTime(0, 0), QTimeZone(IstTime::kOffsetSeconds)).toMSecsSinceEpoch();
}

QDate istDate(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone(IstTime::kOffsetSeconds)).date();
}

/// A stand-in server that answers every request with one canned JSON body (200), to show the
/// page an answer the real server would never send.
class CannedServer final : public QTcpServer
{
public:
    explicit CannedServer(const QJsonObject &body) : m_body(QJsonDocument(body).toJson(QJsonDocument::Compact))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    m_request += socket->readAll();
                    if (!m_request.contains("\r\n\r\n"))
                        return;
                    m_request.clear();
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                  "Content-Length: " +
                                  QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

private:
    QByteArray m_body;
    QByteArray m_request;
};

} // namespace

class TestUiDayEnd final : public QObject
{
    Q_OBJECT

private slots:
    void reportFromJson()
    {
        QJsonArray hours;
        hours.append(QJsonObject{{QStringLiteral("hour"), 19},
                                 {QStringLiteral("success"), 3},
                                 {QStringLiteral("bill_amount"), QStringLiteral("₹600.00")}});
        const QJsonObject totals{{QStringLiteral("type"), QString()},
                                 {QStringLiteral("operator_code"), QString()},
                                 {QStringLiteral("success"), 3},
                                 {QStringLiteral("pending"), 1},
                                 {QStringLiteral("failed"), 2},
                                 {QStringLiteral("bill_amount"), QStringLiteral("₹600.00")},
                                 {QStringLiteral("discount"), QStringLiteral("₹12.50")},
                                 {QStringLiteral("paid"), QStringLiteral("₹587.50")}};
        const QJsonObject wallet{{QStringLiteral("opening"), QStringLiteral("₹1000.00")},
                                 {QStringLiteral("topups"), QStringLiteral("₹0.00")},
                                 {QStringLiteral("debits"), QStringLiteral("-₹587.50")},
                                 {QStringLiteral("refunds"), QStringLiteral("₹0.00")},
                                 {QStringLiteral("closing"), QStringLiteral("₹412.50")}};
        const QJsonObject data{
            {QStringLiteral("date"), QStringLiteral("2025-03-04")},
            {QStringLiteral("mode"), QStringLiteral("test")},
            {QStringLiteral("totals"), totals},
            {QStringLiteral("commission_earned"), QStringLiteral("₹12.50")},
            {QStringLiteral("lines"), QJsonArray()},
            {QStringLiteral("clerks"), QJsonArray()},
            {QStringLiteral("hours"), hours},
            {QStringLiteral("unknown_at_upstream"),
             QJsonObject{{QStringLiteral("count"), 0}, {QStringLiteral("paid"), QStringLiteral("₹0.00")}}},
            {QStringLiteral("wallet"), wallet},
            {QStringLiteral("tenders"), Shift::TenderTotals{{2, 40000}, {1, 20000}, {}}.toJson()}, // issue 28
            {QStringLiteral("shifts"), QJsonArray()},
            {QStringLiteral("complaints"), DayEndReportData::Complaints{2, 1, 1, 0}.toJson()}}; // issue 29
        QString error;
        const std::optional<DayEndReportData> decoded = DayEndReportData::fromJson(data, &error);
        QVERIFY2(decoded, qPrintable(error));
        const DayEndReportData &report = *decoded;
        QCOMPARE(report.date, QDate(2025, 3, 4));
        QCOMPARE(report.complaints, (DayEndReportData::Complaints{2, 1, 1, 0}));
        QCOMPARE(report.totals.success, 3);
        QCOMPARE(report.totals.failed, 2);
        QCOMPARE(report.commission, 1250);
        QCOMPARE(report.hours.size(), 24); // the hours left out count zero
        QCOMPARE(report.hours.at(19).billAmount, 60000);
        QCOMPARE(report.walletOpening, 100000);
        QCOMPARE(report.debits, -58750);
        QCOMPARE(report.walletClosing, 41250);
        const QString html = DayEndPrint::toHtml(report, OperatorCatalog::builtIn(), QStringLiteral("Shop <1>"),
                                                 QStringLiteral("Road & Co"));
        QVERIFY(html.contains(QStringLiteral("Shop &lt;1&gt;")));
        QVERIFY(html.contains(QStringLiteral("₹12.50")));

        // Issue 29: the day's complaints, in the one model the screen and the paper both show.
        const DayEndReportModel model = DayEndReportModel::build(report, OperatorCatalog::builtIn());
        const ReportSection *complaints = model.section(QStringLiteral("complaints"));
        QVERIFY(complaints);
        QCOMPARE(complaints->figures.size(), 4);
        QCOMPARE(complaints->figures.at(0).value, QStringLiteral("2")); // raised
        QCOMPARE(complaints->figures.at(1).value, QStringLiteral("1")); // still open
        QCOMPARE(complaints->figures.at(2).value, QStringLiteral("1")); // credited back
        QCOMPARE(complaints->figures.at(3).value, QStringLiteral("0")); // rejected
        QVERIFY(html.contains(QStringLiteral("Credited back")));
        DayEndReportData quiet = report;
        quiet.complaints = {};
        QVERIFY(!DayEndReportModel::build(quiet, OperatorCatalog::builtIn()).section(QStringLiteral("complaints")));
    }

    // Issue 14: the day-end report used to read a missing field as zero, so an answer without the
    // closing balance showed "₹0.00". Now the page shows why the answer could not be read.
    void answerWithoutAFieldShowsAnErrorNotZero()
    {
        DayEndReportData honest;
        honest.date = QDate(2026, 11, 24);
        honest.mode = QStringLiteral("test");
        honest.walletOpening = 100000;
        honest.walletClosing = 41250;
        for (int hour = 0; hour < 24; ++hour)
            honest.hours.append({hour, 0, 0});
        QJsonObject data = honest.toJson();
        QJsonObject wallet = data.value(QStringLiteral("wallet")).toObject();
        wallet.remove(QStringLiteral("closing"));
        data.insert(QStringLiteral("wallet"), wallet);
        CannedServer server(QJsonObject{{QStringLiteral("data"), data}});
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        ApiClient api(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort())), QStringLiteral("test_k"),
                      QStringLiteral("secret"));
        QTemporaryDir dir;
        TerminalContext context(api, dir.filePath(QStringLiteral("prefs.ini")));
        DayEndPage page(context);
        page.resize(1366, 768);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *message = child<QLabel>(page, "generalError");
        QTRY_VERIFY_WITH_TIMEOUT(message->isVisible(), kTimeoutMs);
        QVERIFY2(message->text().contains(QStringLiteral("`closing` is missing")), qPrintable(message->text()));
        QVERIFY(!page.hasReport());
        QVERIFY(!child<QPushButton>(page, "printButton")->isEnabled());
        QVERIFY(child<QLabel>(page, "walletClosing")->text() != Money::formatIndian(0));
    }

    void reportOpensOnTheTerminalClocksIstDay()
    {
        TerminalFixture terminal;
        // 20:00 UTC on 10 March is already 01:30 IST on 11 March: the IST day counts, not the machine's.
        const ManualClock clock(QDateTime(QDate(2025, 3, 10), QTime(20, 0), Qt::UTC));
        terminal.context.setClock(clock);
        DayEndPage page(terminal.context);
        auto *date = child<QDateEdit>(page, "reportDate");
        QCOMPARE(date->date(), QDate(2025, 3, 11));
        QCOMPARE(date->maximumDate(), QDate(2025, 3, 12));
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport(), kTimeoutMs);
        QCOMPARE(page.report().date, QDate(2025, 3, 11));
    }

    void reportMatchesTheDatabase()
    {
        Shop shop;
        // The IST day of the newest seeded sale, and the day before it.
        const QDate day = istDate(shop.sql(QStringLiteral("SELECT MAX(created_at) FROM transactions")));
        DayEndPage page(shop.context);
        page.resize(1366, 768);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport(), kTimeoutMs);
        QCOMPARE(page.report().date,
                 QDateTime::currentDateTimeUtc().toTimeZone(QTimeZone(IstTime::kOffsetSeconds)).date());

        for (const QDate &date : {day, day.addDays(-1)}) {
            QSignalSpy shown(&page, &DayEndPage::reportShown);
            child<QDateEdit>(page, "reportDate")->setDate(date);
            QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1 && page.report().date == date, kTimeoutMs);
            const qint64 from = istMidnightMs(date);
            const qint64 to = istMidnightMs(date.addDays(1));
            const QString where = QStringLiteral(" FROM transactions WHERE mode = 'test' AND created_at >= ? AND "
                                                 "created_at < ?");
            const auto count = [&](const char *status) {
                return shop.sql(QStringLiteral("SELECT COUNT(*)") + where + QStringLiteral(" AND status = ?"),
                                {from, to, QLatin1String(status)});
            };
            const auto sum = [&](const char *column) {
                return shop.sql(QStringLiteral("SELECT COALESCE(SUM(%1), 0)").arg(QLatin1String(column)) + where +
                                    QStringLiteral(" AND status = 'SUCCESS'"),
                                {from, to});
            };
            const qint64 successes = count("SUCCESS");
            QVERIFY(successes > 0);
            QCOMPARE(child<QLabel>(page, "successCount")->text(), QLocale().toString(successes));
            QCOMPARE(child<QLabel>(page, "failedCount")->text(), QLocale().toString(count("FAILED")));
            QCOMPARE(child<QLabel>(page, "pendingCount")->text(), QLocale().toString(count("PENDING")));
            QCOMPARE(child<QLabel>(page, "billTotal")->text(), Money::formatIndian(sum("bill_amount")));
            QCOMPARE(child<QLabel>(page, "commissionEarned")->text(), Money::formatIndian(sum("discount")));
            QCOMPARE(child<QLabel>(page, "paidTotal")->text(), Money::formatIndian(sum("paid")));
            const auto ledger = [&](const QString &condition, const QVariantList &values) {
                return shop.sql(QStringLiteral("SELECT COALESCE(SUM(amount), 0) FROM wallet_ledger WHERE mode = 'test' "
                                               "AND ") +
                                    condition,
                                values);
            };
            QCOMPARE(child<QLabel>(page, "walletOpening")->text(),
                     Money::formatIndian(ledger(QStringLiteral("created_at < ?"), {from})));
            QCOMPARE(child<QLabel>(page, "walletClosing")->text(),
                     Money::formatIndian(ledger(QStringLiteral("created_at < ?"), {to})));
            QCOMPARE(child<QLabel>(page, "walletRefunds")->text(),
                     Money::formatIndian(
                         ledger(QStringLiteral("created_at >= ? AND created_at < ? AND kind = 'refund'"), {from, to})));
            // Per operator lines and per hour add up to the same totals.
            Paise hourly = 0;
            qint64 hourlySales = 0;
            for (const DayEndReportData::Hour &hour : page.report().hours) {
                hourly += hour.billAmount;
                hourlySales += hour.success;
            }
            QCOMPARE(hourly, sum("bill_amount"));
            QCOMPARE(hourlySales, successes);
            auto *lines = child<QTableWidget>(page, "linesTable");
            const qint64 groups = shop.sql(QStringLiteral("SELECT COUNT(*) FROM (SELECT type, operator_code") + where +
                                               QStringLiteral(" GROUP BY type, operator_code) AS line"),
                                           {from, to});
            QCOMPARE(lines->rowCount(), groups + 1); // + the total row
            QCOMPARE(lines->item(int(groups), 2)->text(), QLocale().toString(successes));
            qint64 clerkSales = 0;
            auto *clerks = child<QTableWidget>(page, "clerksTable");
            for (int row = 0; row < clerks->rowCount(); ++row)
                clerkSales += QLocale().toLongLong(clerks->item(row, 1)->text());
            QCOMPARE(clerkSales, successes);
        }
        page.grab().save(QStringLiteral("/tmp/bodayend_report.png"));
    }

    void salesByHourScrollsIntoViewByKeyboard()
    {
        // Issue 27: from the bar, Tab reaches the report, and PageDown brings "Sales by hour" into view.
        Shop shop;
        DayEndPage page(shop.context);
        page.resize(1160, 640); // the page area of a 1366×768 terminal
        page.show();
        QApplication::setActiveWindow(&page);
        QVERIFY(QTest::qWaitForWindowActive(&page));
        const QDate day = istDate(shop.sql(QStringLiteral("SELECT MAX(created_at) FROM transactions")));
        child<QDateEdit>(page, "reportDate")->setDate(day);
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport() && page.report().date == day, kTimeoutMs);
        auto *scroll = child<QScrollArea>(page, "reportScroll");
        auto *chart = child<QWidget>(page, "hourChartView");
        const auto chartShown = [scroll, chart] {
            const QRect onViewport(chart->mapTo(scroll->viewport(), QPoint(0, 0)), chart->size());
            const QRect seen = onViewport.intersected(scroll->viewport()->rect());
            return seen.height() >= qMin(chart->height(), scroll->viewport()->height());
        };
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QVERIFY(!chartShown());
        // Tab from Print: Save PDF, Refresh, then the report.
        auto *print = child<QPushButton>(page, "printButton");
        print->setFocus();
        QTRY_VERIFY(print->hasFocus());
        for (int press = 0; press < 3; ++press)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QWidget *focus = QApplication::focusWidget();
        QVERIFY2(focus == scroll || scroll->isAncestorOf(focus), focus ? qPrintable(focus->objectName()) : "none");
        // The report is the page's one focus stop below the bar: the chart is none (it took Tab and ate PageDown
        // while out of sight).
        for (const QWidget *inside : scroll->widget()->findChildren<QWidget *>())
            QVERIFY2(!(inside->focusPolicy() & Qt::TabFocus) || inside->focusProxy() || !inside->isVisibleTo(&page),
                     qPrintable(inside->objectName()));
        for (int press = 0; press < 10 && !chartShown(); ++press)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown);
        QVERIFY(chartShown());
        page.grab().save(QStringLiteral("/tmp/bodayend_hours.png"));
    }

    void printShowsAPreviewAndGivesTheKeysBack()
    {
        // Issue 27: Print shows the report in a print preview first (its own Print button prints), and once the
        // preview closes the page takes keys again, the focus back on Print.
        Shop shop;
        DayEndPage page(shop.context);
        page.resize(1366, 768);
        page.show();
        QApplication::setActiveWindow(&page);
        QVERIFY(QTest::qWaitForWindowActive(&page));
        const QDate day = istDate(shop.sql(QStringLiteral("SELECT MAX(created_at) FROM transactions")));
        child<QDateEdit>(page, "reportDate")->setDate(day);
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport() && page.report().date == day, kTimeoutMs);
        auto *print = child<QPushButton>(page, "printButton");
        print->setFocus();
        QTRY_VERIFY(print->hasFocus());
        QTest::keyClick(print, Qt::Key_Space);
        QPointer<QPrintPreviewDialog> dialog;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = page.findChild<QPrintPreviewDialog *>(QStringLiteral("reportPrintDialog"))) &&
                dialog->isVisible(),
            kTimeoutMs);
        auto *preview = dialog->findChild<QPrintPreviewWidget *>();
        QVERIFY(preview);
        QTRY_VERIFY_WITH_TIMEOUT(preview->pageCount() >= 1, kTimeoutMs);
        dialog->resize(1000, 700);
        dialog->grab().save(QStringLiteral("/tmp/bodayend_preview.png"));
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog, kTimeoutMs);
        QTRY_VERIFY(page.isActiveWindow());
        QTRY_COMPARE(QApplication::focusWidget(), print);
        // The keys work: Tab moves on from Print.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QPushButton>(page, "savePdfButton"));
    }

    void savePdfThroughTheButton()
    {
        Shop shop;
        DayEndPage page(shop.context);
        page.resize(1366, 768);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QDate day = istDate(shop.sql(QStringLiteral("SELECT MAX(created_at) FROM transactions")));
        child<QDateEdit>(page, "reportDate")->setDate(day);
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport() && page.report().date == day, kTimeoutMs);
        auto *save = child<QPushButton>(page, "savePdfButton");
        QVERIFY(save->isEnabled());
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("z.pdf"));
        QTest::mouseClick(save, Qt::LeftButton);
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page.findChild<QFileDialog *>(QStringLiteral("reportPdfDialog"))) &&
                                     dialog->isVisible(),
                                 kTimeoutMs);
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), kTimeoutMs);
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY2(bytes.size() > 10'000, qPrintable(QString::number(bytes.size()))); // text, tables and the chart
        QVERIFY(child<QLabel>(page, "generalError")->text().startsWith(QStringLiteral("Report saved")));

        // Without a report there is nothing to write.
        QString error;
        DayEndPage empty(shop.context);
        QVERIFY(!empty.writePdf(out.filePath(QStringLiteral("none.pdf")), &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_MAIN(TestUiDayEnd)
#include "tst_ui_dayend.moc"

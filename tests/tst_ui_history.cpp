#include "apiclient.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/complaintspage.h"
#include "backoffice/csvexport.h"
#include "backoffice/historydetailpane.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "clock.h"
#include "complaints/complaintsection.h"
#include "complaints/raisecomplaintdialog.h"
#include "complaints/resolvecomplaintdialog.h"
#include "operatorcatalog.h"
#include "receipts/receiptrenderer.h"
#include "services/historyseeder.h"
#include "store/accountrepository.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "testserver.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPrintPreviewDialog>
#include <QPrintPreviewWidget>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 10'000;
constexpr int kSeeded = 2000;

/// The real server with 2,000 seeded sales over two years, an admin key, client and context.
struct Shop : TerminalFixture
{
    Shop() { seedHistory(kSeeded); }
};

/// Loads pages until the model says the end is reached.
bool loadAll(HistoryModel &model)
{
    QElapsedTimer guard;
    guard.start();
    while (guard.elapsed() < 60'000) {
        if (!QTest::qWaitFor([&] { return !model.isLoading(); }, kTimeoutMs))
            return false;
        if (!model.canFetchMore())
            return model.isComplete();
        model.fetchMore();
    }
    return false;
}

void showPage(QWidget &page)
{
    page.resize(1366, 768);
    page.show();
    QApplication::setActiveWindow(&page);
    QVERIFY(QTest::qWaitForWindowExposed(&page));
}

void shot(QWidget &page, const char *name)
{
    page.grab().save(QStringLiteral("/tmp/bohistory_%1.png").arg(QLatin1String(name)));
}

/// Widens the page's date range to cover all of the seeded history and waits until it applies.
bool allDates(HistoryPage &page)
{
    const QDate from = QDate::currentDate().addYears(-3);
    child<QDateEdit>(page, "fromDate")->setDate(from);
    child<QDateEdit>(page, "toDate")->setDate(QDate::currentDate().addDays(1));
    return QTest::qWaitFor([&] { return page.model()->filter().from == from && !page.model()->isLoading(); },
                           kTimeoutMs);
}

QFileDialog *openDialog(const char *name)
{
    QFileDialog *found = nullptr;
    static_cast<void>(QTest::qWaitFor(
        [&] {
            for (QWidget *widget : QApplication::topLevelWidgets()) {
                if (widget->objectName() == QLatin1String(name) && widget->isVisible())
                    found = qobject_cast<QFileDialog *>(widget);
            }
            return found != nullptr;
        },
        kTimeoutMs));
    return found;
}

} // namespace

class TestUiHistory final : public QObject
{
    Q_OBJECT

private slots:
    void csvQuote_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("plain") << QStringLiteral("Airtel") << QStringLiteral("Airtel");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
        QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
        QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
        QTest::newRow("carriage return") << QStringLiteral("a\rb") << QStringLiteral("\"a\rb\"");
        QTest::newRow("spaces kept") << QStringLiteral(" a ") << QStringLiteral(" a ");
    }
    void csvQuote()
    {
        QFETCH(QString, field);
        QFETCH(QString, quoted);
        QCOMPARE(CsvExport::quote(field), quoted);
    }

    void csvLine_data()
    {
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<QString>("line");
        QTest::newRow("simple") << QStringList{QStringLiteral("1"), QStringLiteral("x")} << QStringLiteral("1,x\r\n");
        QTest::newRow("empty middle") << QStringList{QStringLiteral("1"), QString(), QStringLiteral("3")}
                                      << QStringLiteral("1,,3\r\n");
        QTest::newRow("formula guarded") << QStringList{QStringLiteral("=SUM(A1)")} << QStringLiteral("'=SUM(A1)\r\n");
        QTest::newRow("at guarded") << QStringList{QStringLiteral("@cmd")} << QStringLiteral("'@cmd\r\n");
        QTest::newRow("negative number kept") << QStringList{QStringLiteral("-0.05")} << QStringLiteral("-0.05\r\n");
        QTest::newRow("guard then quote") << QStringList{QStringLiteral("+a,b")} << QStringLiteral("\"'+a,b\"\r\n");
    }
    void csvLine()
    {
        QFETCH(QStringList, fields);
        QFETCH(QString, line);
        QCOMPARE(CsvExport::line(fields), line);
    }

    void csvRupees_data()
    {
        QTest::addColumn<qint64>("paise");
        QTest::addColumn<QString>("rupees");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0.00");
        QTest::newRow("whole") << qint64(24900) << QStringLiteral("249.00");
        QTest::newRow("paise") << qint64(24537) << QStringLiteral("245.37");
        QTest::newRow("under a rupee") << qint64(5) << QStringLiteral("0.05");
        QTest::newRow("negative") << qint64(-5) << QStringLiteral("-0.05");
        QTest::newRow("large") << qint64(2500000) << QStringLiteral("25000.00");
    }
    void csvRupees()
    {
        QFETCH(qint64, paise);
        QFETCH(QString, rupees);
        QCOMPARE(CsvExport::rupees(paise), rupees);
    }

    void csvFields()
    {
        const QJsonObject json{{QStringLiteral("entity"), QStringLiteral("appstore_voucher")},
                               {QStringLiteral("transaction_id"), 42},
                               {QStringLiteral("datetime"), QStringLiteral("2025-01-02 10:11:12")},
                               {QStringLiteral("type"), QStringLiteral("VOUCHER")},
                               {QStringLiteral("operator"), QStringLiteral("Google Play")},
                               {QStringLiteral("customer_email"), QStringLiteral("a,b@example.com")},
                               {QStringLiteral("bill_amount"), QStringLiteral("₹500.00")},
                               {QStringLiteral("discount"), QStringLiteral("₹5.00")},
                               {QStringLiteral("paid"), QStringLiteral("₹495.00")},
                               {QStringLiteral("transaction_status"), QStringLiteral("SUCCESS")},
                               {QStringLiteral("redeem_code"), QStringLiteral("ABCD-EFGH-IJKL-MNOP")},
                               {QStringLiteral("reference_id"), QStringLiteral("ref-1")}};
        QString error;
        const std::optional<TransactionRecord> voucher = TransactionRecord::fromJson(json, &error);
        QVERIFY2(voucher, qPrintable(error));
        QCOMPARE(CsvExport::line(CsvExport::fields(*voucher)),
                 QStringLiteral("42,2025-01-02 10:11:12,VOUCHER,Google Play,,\"a,b@example.com\",500.00,5.00,495.00,"
                                "SUCCESS,ref-1,\r\n")); // no tender recorded (issue 28): the last field empty
        QCOMPARE(CsvExport::header().size(), CsvExport::fields(*voucher).size());
    }

    void modelPagesUntilTheEnd()
    {
        Shop shop;
        HistoryModel model(shop.api);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The tester itself asks fetchMore() whenever rows arrive, like a view scrolling down.
        QSignalSpy pages(&model, &HistoryModel::pageLoaded);
        model.setFilter({});
        QVERIFY(model.isLoading());
        model.fetchMore(); // a second call while one is in flight is ignored
        QTRY_VERIFY_WITH_TIMEOUT(!pages.isEmpty(), kTimeoutMs);
        QCOMPARE(pages.at(0).at(0).toInt(), HistoryModel::kPageSize); // one page, not a full load
        QVERIFY(loadAll(model));
        // Page by page, 200 rows each: 10 full pages for 2,000 sales (then an empty last answer).
        QVERIFY(pages.count() >= kSeeded / HistoryModel::kPageSize);
        for (int page = 0; page < kSeeded / HistoryModel::kPageSize; ++page)
            QCOMPARE(pages.at(page).at(0).toInt(), (page + 1) * HistoryModel::kPageSize);
        const qint64 count = shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE mode = 'test'"));
        QCOMPARE(count, kSeeded);
        QCOMPARE(model.rowCount(), count);
        QVERIFY(!model.canFetchMore());
        // Newest first, no duplicates across page boundaries.
        QSet<qint64> ids;
        for (int row = 0; row < model.rowCount(); ++row) {
            ids.insert(model.row(row).transactionId);
            if (row > 0)
                QVERIFY(model.row(row).transactionId < model.row(row - 1).transactionId);
        }
        QCOMPARE(ids.size(), count);
        QCOMPARE(model.index(0, HistoryModel::BillColumn).data().toString(),
                 Money::formatIndian(model.row(0).billAmount));
    }

    void newFilterCancelsTheOldRequest()
    {
        Shop shop;
        HistoryModel model(shop.api);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFilter({});
        HistoryFilter failed;
        failed.status = QStringLiteral("FAILED");
        model.setFilter(failed); // the first request is aborted; only the FAILED rows arrive
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kTimeoutMs);
        QVERIFY(loadAll(model));
        const qint64 failures =
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE mode = 'test' AND status = 'FAILED'"));
        QVERIFY(failures > 0);
        QCOMPARE(model.rowCount(), failures);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.row(row).status, QStringLiteral("FAILED"));
    }

    void sortByAmount_data()
    {
        QTest::addColumn<int>("order");
        QTest::newRow("highest first") << int(Qt::DescendingOrder);
        QTest::newRow("lowest first") << int(Qt::AscendingOrder);
    }
    void sortByAmount()
    {
        QFETCH(int, order);
        Shop shop;
        HistoryModel model(shop.api);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFilter({});
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kTimeoutMs);
        model.sort(HistoryModel::TypeColumn, Qt::SortOrder(order)); // not sortable: nothing happens
        QVERIFY(!model.isLoading());
        model.sort(HistoryModel::BillColumn, Qt::SortOrder(order));
        QVERIFY(model.isLoading());
        QCOMPARE(model.sortColumn(), int(HistoryModel::BillColumn));
        QCOMPARE(int(model.sortOrder()), order);
        QVERIFY(loadAll(model));
        QCOMPARE(model.rowCount(), kSeeded);
        const bool descending = order == Qt::DescendingOrder;
        for (int row = 1; row < model.rowCount(); ++row) {
            const Paise before = model.row(row - 1).billAmount;
            const Paise now = model.row(row).billAmount;
            QVERIFY2(descending ? before >= now : before <= now, qPrintable(QString::number(row)));
        }
        const qint64 extreme = shop.sql(descending ? QStringLiteral("SELECT MAX(bill_amount) FROM transactions")
                                                   : QStringLiteral("SELECT MIN(bill_amount) FROM transactions"));
        QCOMPARE(model.row(0).billAmount, extreme);
    }

    void defaultRangeEndsOnTheTerminalClocksIstDay()
    {
        TerminalFixture terminal;
        // 20:00 UTC on 10 March is already 01:30 IST on 11 March: the IST day counts, not the machine's.
        const ManualClock clock(QDateTime(QDate(2025, 3, 10), QTime(20, 0), Qt::UTC));
        terminal.context.setClock(clock);
        HistoryPage page(terminal.context);
        QCOMPARE(child<QDateEdit>(page, "toDate")->date(), QDate(2025, 3, 11));
        QCOMPARE(child<QDateEdit>(page, "fromDate")->date(), QDate(2025, 3, 5));
    }

    void pageFiltersChangeRowsAndTotals()
    {
        Shop shop;
        HistoryPage page(shop.context);
        showPage(page);
        HistoryModel *model = page.model(); // (the model tests above run QAbstractItemModelTester)
        auto *totals = child<QLabel>(page, "totalsLine");
        // Default: the last 7 days (IST).
        QCOMPARE(child<QDateEdit>(page, "toDate")->date().daysTo(child<QDateEdit>(page, "fromDate")->date()), -6);
        QVERIFY(allDates(page));
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), qint64(kSeeded), kTimeoutMs);
        // The view fetched only the page it shows, not all 2,000 rows.
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), HistoryModel::kPageSize, kTimeoutMs);
        QVERIFY(model->canFetchMore());
        shot(page, "all");

        // Status: Failed, chosen with the keyboard.
        auto *status = child<QComboBox>(page, "statusFilter");
        status->setFocus();
        QTest::keyClick(status, Qt::Key_Down);
        QTest::keyClick(status, Qt::Key_Down);
        QTest::keyClick(status, Qt::Key_Down);
        QCOMPARE(status->currentData().toString(), QStringLiteral("FAILED"));
        const qint64 failures =
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE mode = 'test' AND status = 'FAILED'"));
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), failures, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() > 0, kTimeoutMs);
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->row(row).status, QStringLiteral("FAILED"));
        QVERIFY(totals->text().contains(QStringLiteral("Bill ₹0.00"))); // money sums count SUCCESS only
        status->setCurrentIndex(0);

        // Operator: Jio.
        auto *operatorBox = child<QComboBox>(page, "operatorFilter");
        QCOMPARE(operatorBox->count(), 12); // "All" and the 11 operators
        operatorBox->setCurrentIndex(operatorBox->findData(QStringLiteral("RJ")));
        const qint64 jio =
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE mode = 'test' AND operator_code = 'RJ'"));
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), jio, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() > 0, kTimeoutMs);
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->row(row).operatorName, QStringLiteral("Jio"));
        operatorBox->setCurrentIndex(0);

        // Text: a number prefix, typed (debounced) into the search box.
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() > 0, kTimeoutMs);
        QString prefix;
        for (int row = 0; row < model->rowCount() && prefix.isEmpty(); ++row) {
            if (model->row(row).type == QLatin1String("MOBILE"))
                prefix = model->row(row).number.left(6);
        }
        QVERIFY(!prefix.isEmpty());
        const qint64 matching =
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE mode = 'test' AND (number LIKE ? OR "
                                    "reference_id LIKE ? OR id = ?)"),
                     {QString(prefix + QLatin1Char('%')), QString(prefix + QLatin1Char('%')), prefix.toLongLong()});
        QTest::keyClicks(child<QLineEdit>(page, "searchFilter"), prefix);
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), matching, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading(), kTimeoutMs);
        QCOMPARE(model->rowCount(), qMin<qint64>(matching, HistoryModel::kPageSize));
        for (int row = 0; row < model->rowCount(); ++row) {
            const HistoryRow &r = model->row(row);
            QVERIFY(r.number.startsWith(prefix) || r.referenceId.startsWith(prefix));
        }
        shot(page, "filtered");
    }

    void headerClickSortsOnTheServer()
    {
        Shop shop;
        HistoryPage page(shop.context);
        showPage(page);
        QVERIFY(allDates(page));
        HistoryModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() > 0, kTimeoutMs);
        auto *table = child<QTableView>(page, "historyTable");
        QHeaderView *header = table->horizontalHeader();
        const auto clickHeader = [&](int column) {
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                              QPoint(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                                     header->height() / 2));
        };
        clickHeader(HistoryModel::BillColumn);
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().sort != HistoryFilter::Sort::Newest && !model->isLoading() &&
                                     model->rowCount() > 0,
                                 kTimeoutMs);
        const bool high = model->filter().sort == HistoryFilter::Sort::AmountHigh;
        QVERIFY(high || model->filter().sort == HistoryFilter::Sort::AmountLow);
        for (int row = 1; row < model->rowCount(); ++row)
            QVERIFY(high ? model->row(row - 1).billAmount >= model->row(row).billAmount
                         : model->row(row - 1).billAmount <= model->row(row).billAmount);
        // The type column does not sort: the indicator stays on the amount.
        const HistoryFilter::Sort before = model->filter().sort;
        clickHeader(HistoryModel::TypeColumn);
        QCOMPARE(model->filter().sort, before);
        QCOMPARE(header->sortIndicatorSection(), int(HistoryModel::BillColumn));
    }

    void detailPaneShowsLedgerRows()
    {
        Shop shop;
        HistoryPage page(shop.context);
        showPage(page);
        QVERIFY(allDates(page));
        auto *status = child<QComboBox>(page, "statusFilter");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        HistoryModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().status == QLatin1String("FAILED") && !model->isLoading() &&
                                     model->rowCount() > 0,
                                 kTimeoutMs);
        auto *table = child<QTableView>(page, "historyTable");
        const QRect cell = table->visualRect(model->index(0, HistoryModel::NumberColumn));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        const qint64 id = model->row(0).transactionId;
        auto *ledger = child<QTableWidget>(page, "ledgerTable");
        // A failed sale: the debit and its refund.
        QTRY_COMPARE_WITH_TIMEOUT(ledger->rowCount(), 2, kTimeoutMs);
        const qint64 ledgerRows =
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ?"), {id});
        QCOMPARE(ledger->rowCount(), ledgerRows);
        QStringList kinds{ledger->item(0, 0)->text(), ledger->item(1, 0)->text()};
        kinds.sort();
        QCOMPARE(kinds, (QStringList{QStringLiteral("debit"), QStringLiteral("refund")}));
        // The spec's `paid` is the wallet debit, and a failed sale's came back (issue 27).
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(page, "detailPaid")->text(),
                                  Money::formatIndian(model->row(0).paid) + QStringLiteral(", refunded"), kTimeoutMs);
        auto *form = child<QLabel>(page, "detailPaid")->parentWidget()->findChild<QFormLayout *>();
        QVERIFY(form);
        QCOMPARE(qobject_cast<QLabel *>(form->labelForField(child<QLabel>(page, "detailPaid")))->text(),
                 QStringLiteral("Wallet debit"));
        QVERIFY(child<QPushButton>(page, "recheckButton")->isEnabled());
        QVERIFY(child<QPushButton>(page, "reprintButton")->isEnabled());
        // No webhook endpoint is configured, so no attempts exist and there is nothing to redeliver.
        auto *deliveries = child<QTableWidget>(page, "deliveriesTable");
        QTRY_VERIFY_WITH_TIMEOUT(!child<QPushButton>(page, "redeliverButton")->isEnabled(), kTimeoutMs);
        QCOMPARE(deliveries->rowCount(), 0);

        // Keyboard: Down moves to the next sale and the pane follows.
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down);
        const qint64 next = model->row(1).transactionId;
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(page, "detailTitle")->text(),
                                  QStringLiteral("Transaction %1").arg(next), kTimeoutMs);

        // Recheck asks the server again and keeps the same record.
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(page, "recheckButton")->isEnabled(), kTimeoutMs);
        QTest::mouseClick(child<QPushButton>(page, "recheckButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(page, "recheckButton")->isEnabled(), kTimeoutMs);
        QCOMPARE(child<QLabel>(page, "detailPaid")->text(),
                 Money::formatIndian(model->row(1).paid) +
                     (model->row(1).status == QLatin1String("FAILED") ? QStringLiteral(", refunded") : QString()));
        shot(page, "detail");
    }

    // Issue 27: History tells the failed sales the customer had paid for (PENDING first, then FAILED) from those
    // that failed at once: the status, its tooltip, the detail pane and the reprinted receipt say "money back".
    // Issue 29: a complaint raised from the detail pane, by the keyboard; the pane shows its state afterwards.
    void raiseComplaintFromTheDetailPane()
    {
        TerminalFixture shop;
        const HttpResult sold =
            shop.server.http().postJson(shop.server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                                        QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("9812300001")},
                                                    {QStringLiteral("operator_code"), QStringLiteral("RJ")},
                                                    {QStringLiteral("amount"), QStringLiteral("299")}},
                                        shop.auth());
        QCOMPARE(sold.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        const qint64 id = sold.data().value(QStringLiteral("transaction_id")).toInteger();
        HistoryDetailPane pane(shop.context);
        showActive(pane);
        pane.setTransaction(id);
        QPushButton *raise = pane.complaints()->raiseButton();
        QTRY_VERIFY_WITH_TIMEOUT(raise->isVisible(), kTimeoutMs);
        QVERIFY(!pane.complaints()->stateLabel()->isVisible());

        QTest::keyClick(&pane, Qt::Key_C, Qt::AltModifier);
        RaiseComplaintDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = pane.findChild<RaiseComplaintDialog *>()) && dialog->isVisible(),
                                 kTimeoutMs);
        QTRY_COMPARE(QApplication::focusWidget(), dialog->findChild<QWidget *>(QStringLiteral("complaintReason")));
        // "Other" by its first letter; Enter without a note is refused at the note.
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("O"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        auto *noteError = dialog->findChild<QLabel *>(QStringLiteral("complaintError_note"));
        QTRY_VERIFY(noteError->isVisible());
        QCOMPARE(QApplication::focusWidget(), dialog->findChild<QWidget *>(QStringLiteral("complaintNote")));
        QCOMPARE(shop.sql(QStringLiteral("SELECT COUNT(*) FROM complaints")), 0);
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("Talktime went to another SIM"));
        dialog->grab().save(QStringLiteral("/tmp/i28/shots/i29_raise_complaint_dialog.png"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!pane.findChild<RaiseComplaintDialog *>() || !dialog->isVisible(), kTimeoutMs);

        // The server has it; the pane says so and offers no second one while it is open.
        QCOMPARE(
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE transaction_id = ? AND reason = 'other'"),
                     {id}),
            1);
        QLabel *state = pane.complaints()->stateLabel();
        QTRY_VERIFY_WITH_TIMEOUT(state->isVisible(), kTimeoutMs);
        QVERIFY2(state->text().contains(QLatin1String("(Other): open, raised")), qPrintable(state->text()));
        QVERIFY(!raise->isVisible());
        // Shown again later (another sale, then this one): loaded from the server.
        pane.setTransaction(0);
        pane.setTransaction(id);
        QTRY_VERIFY_WITH_TIMEOUT(state->isVisible() && state->text().contains(QLatin1String("open")), kTimeoutMs);
        QVERIFY(!raise->isVisible());
        settleLayouts();
        pane.grab().save(QStringLiteral("/tmp/i28/shots/i29_history_complaint.png"));
    }

    // Issue 29: Back office → Complaints: unresolved first, the one past its deadline says so; an admin credits one
    // by the keyboard; the sale is reversed and its reprinted receipt says why.
    void complaintsPageResolvesAndTheReceiptSaysSo()
    {
        TerminalFixture shop;
        const auto sell = [&](const QString &number) {
            const HttpResult r = shop.server.http().postJson(
                shop.server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                QJsonObject{{QStringLiteral("phone_number"), number},
                            {QStringLiteral("operator_code"), QStringLiteral("RJ")},
                            {QStringLiteral("amount"), QStringLiteral("199")}},
                shop.auth());
            return r.data().value(QStringLiteral("transaction_id")).toInteger();
        };
        const auto complain = [&](qint64 sale) {
            const HttpResult r = shop.server.http().postJson(
                shop.server.url(QStringLiteral("/api/v1/transactions/%1/complaints").arg(sale)),
                QJsonObject{{QStringLiteral("reason"), QStringLiteral("other")},
                            {QStringLiteral("note"), QStringLiteral("Customer says no talktime")}},
                shop.auth());
            if (r.status != 201)
                qWarning("complaint refused: %s", r.body.constData());
            return r.data().value(QStringLiteral("id")).toInteger();
        };
        const qint64 late = sell(QStringLiteral("9812300011"));
        const qint64 fresh = sell(QStringLiteral("9812300012"));
        const qint64 lateComplaint = complain(late);
        const qint64 freshComplaint = complain(fresh);
        QVERIFY(lateComplaint > 0 && freshComplaint > 0);
        // The first one was raised three days ago: past the 48 h deadline.
        const qint64 threeDays = qint64(3) * 24 * 3600 * 1000;
        shop.sql(QStringLiteral(
                     "UPDATE complaints SET raised_at = raised_at - ?, deadline_at = deadline_at - ? WHERE id = ?"),
                 {threeDays, threeDays, lateComplaint});

        ComplaintsPage page(shop.context);
        showActive(page);
        CollectionModel *model = page.model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, kTimeoutMs);
        int lateRow = -1;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->item(row).value(QStringLiteral("id")).toInteger() == lateComplaint)
                lateRow = row;
        }
        QVERIFY(lateRow >= 0);
        const int deadline = model->columnCount() - 1;
        QVERIFY2(model->index(lateRow, deadline).data().toString().endsWith(QLatin1String("PAST DEADLINE")),
                 qPrintable(model->index(lateRow, deadline).data().toString()));
        QVERIFY(!model->index(1 - lateRow, deadline).data().toString().contains(QLatin1String("PAST")));
        QVERIFY(page.table()->model()->index(lateRow, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(!page.table()->model()->index(1 - lateRow, 0).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model->index(lateRow, deadline - 1).data().toString(), QStringLiteral("3 d 0 h"));
        settleLayouts();
        page.grab().save(QStringLiteral("/tmp/i28/shots/i29_complaints_page.png"));

        // Keyboard: the table, the late one, Alt+V; Space chooses Credited back, Enter resolves.
        page.table()->setFocus();
        page.table()->setCurrentIndex(page.table()->model()->index(lateRow, 0));
        QVERIFY(page.resolveButton()->isEnabled());
        QTest::keyClick(page.table(), Qt::Key_V, Qt::AltModifier);
        ResolveComplaintDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page.findChild<ResolveComplaintDialog *>()) && dialog->isVisible(),
                                 kTimeoutMs);
        QTRY_COMPARE(QApplication::focusWidget(), dialog->findChild<QWidget *>(QStringLiteral("complaintCredited")));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab); // the other outcome is not a Tab stop
        QCOMPARE(QApplication::focusWidget(), dialog->findChild<QWidget *>(QStringLiteral("complaintWords")));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("Credited after checking with Jio"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("JIO-REF-77"));
        dialog->grab().save(QStringLiteral("/tmp/i28/shots/i29_resolve_complaint_dialog.png"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<ResolveComplaintDialog *>() || !dialog->isVisible(), kTimeoutMs);
        QCOMPARE(shop.sql(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE id = ? AND state = 'credited'"
                                         " AND operator_reference = 'JIO-REF-77'"),
                          {lateComplaint}),
                 1);
        QCOMPARE(
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE id = ? AND status = 'FAILED'"), {late}),
            1);
        // The list (not resolved yet) keeps only the other one.
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, kTimeoutMs);

        // History: the sale says credited, and its reprinted receipt says so.
        HistoryDetailPane pane(shop.context);
        showActive(pane);
        pane.setTransaction(late);
        QTRY_VERIFY_WITH_TIMEOUT(pane.complaints()->stateLabel()->text().contains(QLatin1String("credited back")),
                                 kTimeoutMs);
        QVERIFY(!pane.complaints()->raiseButton()->isVisible());
        const ReceiptData receipt = pane.receiptData();
        QVERIFY2(
            receipt.complaintCredit.startsWith(QStringLiteral("Credited back after complaint %1").arg(lateComplaint)),
            qPrintable(receipt.complaintCredit));
        bool printed = false;
        for (const ReceiptBlock &block : ReceiptRenderer::blocks(receipt, true))
            printed = printed || block.text == receipt.complaintCredit;
        QVERIFY(printed);
    }

    void failedAfterPaymentSaysMoneyBack()
    {
        TerminalFixture shop;
        const auto sell = [&](const QString &number) {
            const HttpResult r = shop.server.http().postJson(
                shop.server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                QJsonObject{{QStringLiteral("phone_number"), number},
                            {QStringLiteral("amount"), 199},
                            {QStringLiteral("operator_code"), QStringLiteral("RJ")}},
                shop.auth());
            return r.data().value(QStringLiteral("transaction_id")).toInteger();
        };
        const qint64 late = sell(QStringLiteral("9876542222"));   // PENDING, then FAILED
        const qint64 atOnce = sell(QStringLiteral("9876540000")); // FAILED in its answer
        QVERIFY(late > 0 && atOnce > 0);
        QTRY_COMPARE_WITH_TIMEOUT(shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'FAILED'")),
                                  2, kTimeoutMs);

        HistoryPage page(shop.context);
        showPage(page);
        HistoryModel *model = page.model();
        QAbstractItemModelTester tester(model);
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() == 2, kTimeoutMs);
        const int lateRow = model->row(0).transactionId == late ? 0 : 1;
        const QModelIndex lateStatus = model->index(lateRow, HistoryModel::StatusColumn);
        QCOMPARE(lateStatus.data().toString(), QStringLiteral("FAILED · money back"));
        QVERIFY2(lateStatus.data(Qt::ToolTipRole).toString().contains(QStringLiteral("₹199.00 given back")),
                 qPrintable(lateStatus.data(Qt::ToolTipRole).toString()));
        QCOMPARE(model->index(1 - lateRow, HistoryModel::StatusColumn).data().toString(), QStringLiteral("FAILED"));

        auto *table = child<QTableView>(page, "historyTable");
        table->setFocus();
        table->selectRow(lateRow);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(page, "detailTitle")->text(),
                                  QStringLiteral("Transaction %1").arg(late), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(page.findChild<QLabel *>(QStringLiteral("detailMoneyBack")), kTimeoutMs);
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("detailMoneyBack"))
                    ->text()
                    .startsWith(QStringLiteral("Give ₹199.00 back to the customer")));
        QVERIFY(page.detailPane()->receiptData().givesMoneyBack());
        shot(page, "money-back");

        table->selectRow(1 - lateRow);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(page, "detailTitle")->text(),
                                  QStringLiteral("Transaction %1").arg(atOnce), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<QLabel *>(QStringLiteral("detailMoneyBack")), kTimeoutMs);
        QVERIFY(!page.detailPane()->receiptData().givesMoneyBack());
    }

    void reprintShowsAPreviewAndGivesTheKeysBack()
    {
        // Issue 27: Reprint shows the DUPLICATE receipt in a print preview first; once it closes the page takes
        // keys again, the focus back on Reprint.
        Shop shop;
        HistoryPage page(shop.context);
        showPage(page);
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QVERIFY(allDates(page));
        HistoryModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 0, kTimeoutMs);
        auto *table = child<QTableView>(page, "historyTable");
        table->setFocus();
        table->setCurrentIndex(model->index(0, HistoryModel::NumberColumn));
        auto *reprint = child<QPushButton>(page, "reprintButton");
        QTRY_VERIFY_WITH_TIMEOUT(reprint->isEnabled(), kTimeoutMs);
        reprint->setFocus();
        QTRY_VERIFY(reprint->hasFocus());
        QTest::keyClick(reprint, Qt::Key_Space);
        QPointer<QPrintPreviewDialog> dialog;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page.findChild<QPrintPreviewDialog *>(QStringLiteral("reprintDialog"))) &&
                                     dialog->isVisible(),
                                 kTimeoutMs);
        auto *preview = dialog->findChild<QPrintPreviewWidget *>();
        QVERIFY(preview);
        QTRY_COMPARE_WITH_TIMEOUT(preview->pageCount(), 1, kTimeoutMs);
        dialog->resize(900, 700);
        dialog->grab().save(QStringLiteral("/tmp/bohistory_reprint_preview.png"));
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog, kTimeoutMs);
        QTRY_VERIFY(page.isActiveWindow());
        QTRY_COMPARE(QApplication::focusWidget(), reprint);
    }

    void csvExportWritesEveryFilteredRow()
    {
        Shop shop;
        HistoryPage page(shop.context);
        showPage(page);
        QVERIFY(allDates(page));
        auto *type = child<QComboBox>(page, "typeFilter");
        type->setCurrentIndex(type->findData(QStringLiteral("MOBILE")));
        HistoryModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().type == QLatin1String("MOBILE") && !model->isLoading(), kTimeoutMs);
        const qint64 count =
            shop.sql(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE mode = 'test' AND type = 'MOBILE'"));
        QVERIFY(count > HistoryModel::kPageSize); // more than the loaded page
        QCOMPARE(model->rowCount(), HistoryModel::kPageSize);

        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("mobile.csv"));
        QTest::mouseClick(child<QPushButton>(page, "exportButton"), Qt::LeftButton);
        QFileDialog *dialog = openDialog("exportFileDialog");
        QVERIFY(dialog);
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept();
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "notice")->isVisible(), 30'000);
        QVERIFY2(child<QLabel>(page, "notice")->text().startsWith(QStringLiteral("Exported")),
                 qPrintable(child<QLabel>(page, "notice")->text()));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.endsWith("\r\n"));
        const QList<QByteArray> lines = content.chopped(2).split('\n');
        QCOMPARE(lines.size(), count + 1);
        QCOMPARE(lines.first(), CsvExport::line(CsvExport::header()).toUtf8().chopped(1));
        const QRegularExpression row(
            QStringLiteral("^\\d+,\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,MOBILE,[A-Za-z "
                           "]+,[6-9]\\d{9},,\\d+\\.\\d\\d,\\d+\\.\\d\\d,"
                           "\\d+\\.\\d\\d,(SUCCESS|PENDING|FAILED),[A-Za-z0-9_-]*,(cash|upi)?\\r?$"));
        QSet<QByteArray> ids;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            QVERIFY2(row.match(QString::fromUtf8(lines.at(i))).hasMatch(), lines.at(i).constData());
            ids.insert(lines.at(i).left(lines.at(i).indexOf(',')));
        }
        QCOMPARE(ids.size(), count);
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("mobile.csv")});
    }

    void csvExportCancelRemovesTheFile()
    {
        Shop shop;
        HistoryPage page(shop.context);
        showPage(page);
        QVERIFY(allDates(page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() > 0, kTimeoutMs);
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("all.csv"));
        page.exportCsv(path);
        auto *exporter = page.findChild<CsvExport *>();
        QVERIFY(exporter);
        auto *progress = page.findChild<QProgressDialog *>(QStringLiteral("exportProgress"));
        QVERIFY(progress);
        bool cancelledMidway = false;
        // Cancel as soon as the first page is written, with nine more to go.
        connect(exporter, &CsvExport::progress, progress, [&](qint64 written) {
            if (!cancelledMidway && written > 0 && written < kSeeded) {
                cancelledMidway = true;
                QPushButton *cancel = progress->findChild<QPushButton *>();
                QVERIFY(cancel);
                cancel->click();
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(cancelledMidway, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "notice")->isVisible(), kTimeoutMs);
        QVERIFY2(child<QLabel>(page, "notice")->text().contains(QStringLiteral("cancelled")),
                 qPrintable(child<QLabel>(page, "notice")->text()));
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList());
        QVERIFY(child<QPushButton>(page, "exportButton")->isEnabled());
    }
};

QTEST_MAIN(TestUiHistory)
#include "tst_ui_history.moc"

// Issue 28 in the back office, typed into the real widgets against the real server: the Shifts page (the day's shifts
// with the short and over differences highlighted, filters, the selected shift in full, an admin closing an open
// shift, the CSV), the shift report on 58 and 80 mm paper and as PDF, the day-end report's tenders and shifts on screen
// and on paper, History's payment column and filter, and the Settings fields (shifts, blind count, the UPI ID refused
// when it is not name@handle, this terminal's counter preferences).
#include "backoffice/backofficeview.h"
#include "backoffice/csvexport.h"
#include "backoffice/dayendpage.h"
#include "backoffice/historydetailpane.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "backoffice/settingspage.h"
#include "backoffice/shiftlistmodel.h"
#include "backoffice/shiftscsv.h"
#include "backoffice/shiftspage.h"
#include "counterprefs.h"
#include "receipts/dayendprint.h"
#include "receipts/dayendreportmodel.h"
#include "receipts/shiftreportprint.h"
#include "salesapi.h"
#include "shiftsapi.h"
#include "shopapi.h"
#include "terminalfixture.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPrintPreviewDialog>
#include <QPrintPreviewWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include <optional>

namespace {

constexpr int kTimeoutMs = 10'000;
const QString kShots = QStringLiteral("/tmp/i28/shots");

/// Waits for a typed call's answer (the terminal's ApiClient is asynchronous).
template <class T> Answer<T> await(const TypedCall<T> &call)
{
    std::optional<Answer<T>> answer;
    QObject context;
    call.then(&context, [&answer](const Answer<T> &reply) { answer = reply; });
    if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, kTimeoutMs))
        qWarning("no answer in %d ms", kTimeoutMs);
    return answer.value_or(Answer<T>{});
}

/// Saves `widget` as it will look once its layouts settle, as /tmp/i28/shots/NAME.png (looked at by a person).
void saveShot(QWidget &widget, const QString &name)
{
    settleLayouts();
    QDir().mkpath(kShots);
    QVERIFY(widget.grab().save(kShots + QLatin1Char('/') + name + QStringLiteral(".png")));
}

/// The real server with a day of three shifts (test mode), the admin Owner signed in at the end:
/// - Asha on Counter 1: ₹2,000 opening, cash ₹299 + ₹199, UPI ₹239 + ₹299 (that one failed after she was paid: UPI
///   to return), ₹100 out for the tea supplier; counted ₹2,198 of the expected ₹2,398: short ₹200;
/// - Ravi on Counter 2: ₹1,000 opening, cash ₹249; counted ₹1,299 of ₹1,249: over ₹50;
/// - Imran on Counter 3: ₹500 opening, cash ₹199, still open.
struct ShiftDay : TerminalFixture
{
    ShiftDay()
    {
        context.setShop(QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road, Jaipur"));
        signInAs(QStringLiteral("Asha"), QStringLiteral("1357"), UserRole::Clerk);
        asha = openShift(QStringLiteral("Counter 1"), 2000);
        sell(QStringLiteral("cash"), 299, QStringLiteral("9876543210"));
        sell(QStringLiteral("cash"), 199, QStringLiteral("9812345678"));
        sell(QStringLiteral("upi"), 239, QStringLiteral("9876501234"));
        sell(QStringLiteral("upi"), 299, QStringLiteral("9876542222")); // PENDING, then FAILED: the customer had paid
        const Answer<Shift> moved = await(ShiftsApi(api).cashMove(
            asha, QStringLiteral("out"), 10000, QStringLiteral("Paid the tea supplier"), QStringLiteral("1357")));
        if (!moved.ok())
            qWarning("cash move: %s", qPrintable(moved.error->description()));
        const bool settled = QTest::qWaitFor(
            [this] {
                const Answer<Shift> shift = await(ShiftsApi(api).get(asha));
                return shift.ok() && shift.value->upiToReturn.size() == 1;
            },
            kTimeoutMs);
        if (!settled)
            qWarning("the failed UPI sale did not settle");
        close(asha, {{500, 3}, {200, 2}, {100, 2}, {50, 1}, {20, 2}}, 800, QString());

        signInAs(QStringLiteral("Ravi"), QStringLiteral("2468"), UserRole::Clerk);
        ravi = openShift(QStringLiteral("Counter 2"), 1000);
        sell(QStringLiteral("cash"), 249, QStringLiteral("9811122233"));
        close(ravi, {{500, 2}, {200, 1}, {50, 1}, {20, 2}}, 900, QStringLiteral("Customer left the change"));

        signInAs(QStringLiteral("Imran"), QStringLiteral("3579"), UserRole::Clerk);
        imran = openShift(QStringLiteral("Counter 3"), 500);
        sell(QStringLiteral("cash"), 199, QStringLiteral("9822233344"));

        signInAdmin();
    }

    qint64 openShift(const QString &terminal, qint64 rupees)
    {
        const Answer<Shift> opened = await(ShiftsApi(api).open(terminal, rupees * Money::kPaisePerRupee));
        if (!opened.ok()) {
            qWarning("open: %s", qPrintable(opened.error ? opened.error->description() : QStringLiteral("no answer")));
            return 0;
        }
        return opened.value->id;
    }

    void sell(const QString &tender, qint64 rupees, const QString &phone)
    {
        const Answer<TransactionRecord> sale = await(SalesApi(api).initiate(
            ProductKind::Mobile, QJsonObject{{QStringLiteral("phone_number"), phone},
                                             {QStringLiteral("amount"), rupees},
                                             {QStringLiteral("operator_code"), QStringLiteral("RJ")},
                                             {QStringLiteral("tender"), tender}}));
        if (!sale.ok())
            qWarning("sale: %s", qPrintable(sale.error ? sale.error->description() : QStringLiteral("no answer")));
    }

    void close(qint64 id, const QMap<int, qint64> &counts, Paise coins, const QString &note)
    {
        const Answer<Shift> closed = await(ShiftsApi(api).close(id, counts, coins, note));
        if (!closed.ok())
            qWarning("close: %s", qPrintable(closed.error ? closed.error->description() : QStringLiteral("no answer")));
    }

    /// The shift `id` as the server has it now.
    Shift shift(qint64 id) { return await(ShiftsApi(api).get(id)).value.value_or(Shift{}); }

    qint64 asha = 0;
    qint64 ravi = 0;
    qint64 imran = 0;
};

/// `content` (made with new; the window owns it) inside a 1366×768 window with the terminal's looks (style.qss), as
/// the back office shows it.
struct Window
{
    explicit Window(QWidget *content)
    {
        auto *layout = new QVBoxLayout(&frame);
        layout->setContentsMargins(0, 0, 0, 0);
        content->setParent(&frame);
        layout->addWidget(content);
        frame.resize(1366, 768);
        frame.show();
        QApplication::setActiveWindow(&frame);
    }
    QWidget frame;
};

int rowOfClerk(const ShiftListModel &model, const QString &clerk)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.shift(row)->clerk == clerk)
            return row;
    }
    return -1;
}

/// Picks the item `text` of a closed drop-down from the keyboard, as a person does: Home, then Down until it shows.
void choose(QComboBox *box, const QString &text)
{
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Home);
    for (int step = 0; step < box->count() && box->currentText() != text; ++step)
        QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(box->currentText(), text);
}

} // namespace

class TestUiShifts final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void shiftsPageListsTheDayWithDifferencesHighlighted()
    {
        ShiftDay day;
        auto *view = new BackOfficeView(day.context);
        Window window(view);
        view->setCurrentWidget(view->shiftsPage());
        ShiftsPage *page = view->shiftsPage();
        ShiftListModel *model = page->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, kTimeoutMs);

        const int asha = rowOfClerk(*model, QStringLiteral("Asha"));
        const int ravi = rowOfClerk(*model, QStringLiteral("Ravi"));
        const int imran = rowOfClerk(*model, QStringLiteral("Imran"));
        const auto at = [model](int row, int column, int role = Qt::DisplayRole) {
            return model->index(row, column).data(role);
        };
        QCOMPARE(at(asha, ShiftListModel::TerminalColumn).toString(), QStringLiteral("Counter 1"));
        QCOMPARE(at(asha, ShiftListModel::OpeningColumn).toString(), QStringLiteral("₹2,000.00"));
        QCOMPARE(at(asha, ShiftListModel::CashSalesColumn).toString(), QStringLiteral("₹498.00"));
        QCOMPARE(at(asha, ShiftListModel::UpiSalesColumn).toString(), QStringLiteral("₹538.00"));
        QCOMPARE(at(asha, ShiftListModel::ExpectedColumn).toString(), QStringLiteral("₹2,398.00"));
        QCOMPARE(at(asha, ShiftListModel::CountedColumn).toString(), QStringLiteral("₹2,198.00"));
        // Short in red, over in amber — and in words, not only the colour.
        QCOMPARE(at(asha, ShiftListModel::DifferenceColumn).toString(), QStringLiteral("Short ₹200.00"));
        QCOMPARE(at(asha, ShiftListModel::DifferenceColumn, Qt::ForegroundRole).value<QColor>(),
                 QColor(0xb4, 0x23, 0x18));
        QCOMPARE(at(ravi, ShiftListModel::DifferenceColumn).toString(), QStringLiteral("Over ₹50.00"));
        QCOMPARE(at(ravi, ShiftListModel::DifferenceColumn, Qt::ForegroundRole).value<QColor>(),
                 QColor(0xb5, 0x47, 0x08));
        QCOMPARE(at(imran, ShiftListModel::ClosedColumn).toString(), QStringLiteral("Open"));
        QCOMPARE(at(imran, ShiftListModel::DifferenceColumn).toString(), QStringLiteral("—"));
        QVERIFY(!at(imran, ShiftListModel::DifferenceColumn, Qt::ForegroundRole).isValid());
        auto *totals = child<QLabel>(*page, "totalsLine");
        QCOMPARE(totals->text(),
                 QStringLiteral("Shifts: 3 · open: 1 · short: 1, ₹200.00 in all · over: 1, ₹50.00 in all"));

        // The selected shift in full: Asha's, with her cash out and the UPI to send back.
        auto *table = child<QTableView>(*page, "shiftsTable");
        table->setFocus();
        table->selectRow(asha);
        QTRY_VERIFY(page->selectedShift() && page->selectedShift()->clerk == QLatin1String("Asha"));
        auto *difference = child<QLabel>(*page, "difference");
        QCOMPARE(difference->text(), QStringLiteral("Short ₹200.00"));
        QCOMPARE(difference->property("look").toString(), QStringLiteral("reportValueShort"));
        QCOMPARE(difference->palette().color(QPalette::WindowText), QColor(0xb4, 0x23, 0x18));
        auto *moves = child<QTableWidget>(*page, "cashMovesTable");
        QCOMPARE(moves->rowCount(), 1);
        QCOMPARE(moves->item(0, 1)->text(), QStringLiteral("Out"));
        QCOMPARE(moves->item(0, 2)->text(), QStringLiteral("Paid the tea supplier"));
        QCOMPARE(moves->item(0, 4)->text(), QStringLiteral("-₹100.00"));
        auto *upi = child<QTableWidget>(*page, "upiToReturnTable");
        QVERIFY(upi->isVisible());
        QCOMPARE(upi->item(0, 1)->text(), QStringLiteral("9876542222"));
        QCOMPARE(upi->item(0, 2)->text(), QStringLiteral("₹299.00"));
        auto *counts = child<QTableWidget>(*page, "countsTable");
        QCOMPARE(counts->item(0, 0)->text(), QStringLiteral("₹500 × 3"));
        QCOMPARE(counts->item(0, 1)->text(), QStringLiteral("₹1,500.00"));
        QVERIFY(!child<QPushButton>(*page, "closeButton")->isVisible()); // closed already
        saveShot(window.frame, QStringLiteral("shifts_page"));

        // Filters, typed: Ravi's shifts, then only the open ones of every clerk.
        choose(child<QComboBox>(*page, "clerkFilter"), QStringLiteral("Ravi"));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().clerk == QLatin1String("Ravi") && !model->isLoading(), kTimeoutMs);
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->shift(0)->clerk, QStringLiteral("Ravi"));
        choose(child<QComboBox>(*page, "clerkFilter"), QStringLiteral("All clerks"));
        choose(child<QComboBox>(*page, "stateFilter"), QStringLiteral("Open"));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().state == QLatin1String("open") && model->filter().clerk.isEmpty() &&
                                     !model->isLoading(),
                                 kTimeoutMs);
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->shift(0)->clerk, QStringLiteral("Imran"));
        choose(child<QComboBox>(*page, "terminalFilter"), QStringLiteral("Counter 1"));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().terminal == QLatin1String("Counter 1") && !model->isLoading(),
                                 kTimeoutMs);
        QCOMPARE(model->rowCount(), 0); // Counter 1's shift is closed
        QVERIFY(child<QLabel>(*page, "totalsLine")->text().startsWith(QStringLiteral("No shifts opened on")));
        // Another day: no shifts, and the filters back to everyone.
        auto *date = child<QDateEdit>(*page, "shiftDate");
        date->setDate(date->date().addDays(-1));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().date == date->date() && !model->isLoading(), kTimeoutMs);
        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(child<QComboBox>(*page, "terminalFilter")->currentIndex(), 0);
    }

    void adminClosesAnOpenShiftWithANote()
    {
        ShiftDay day;
        ShiftsPage *page = nullptr;
        auto *view = new BackOfficeView(day.context);
        Window window(view);
        view->setCurrentWidget(page = view->shiftsPage());
        ShiftListModel *model = page->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, kTimeoutMs);
        child<QTableView>(*page, "shiftsTable")->selectRow(rowOfClerk(*model, QStringLiteral("Imran")));
        auto *close = child<QPushButton>(*page, "closeButton");
        QTRY_VERIFY(close->isVisible() && close->isEnabled());
        QTest::mouseClick(close, Qt::LeftButton);
        QDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page->findChild<QDialog *>(QStringLiteral("adminCloseShiftDialog"))) &&
                                     dialog->isVisible(),
                                 kTimeoutMs);
        QCOMPARE(child<QLabel>(*dialog, "expectedCash")->text(), QStringLiteral("Expected in the drawer: ₹699.00"));
        // The count typed line by line (Enter moves on), ₹690 in all: short ₹9.
        auto *first = child<QLineEdit>(*dialog, "count_500");
        QTRY_VERIFY(first->hasFocus());
        for (const char *count : {"1", "0", "1", "1", "2", "0"}) {
            QTest::keyClicks(QApplication::focusWidget(), QLatin1String(count));
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        }
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("0"));
        QCOMPARE(child<QLabel>(*dialog, "countTotals")->text(),
                 QStringLiteral("Counted: ₹690.00 · Difference: Short ₹9.00"));
        // Imran's shift, not the Owner's: no note, no close, and the reason is said.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return); // to the note
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return); // Enter in the note: close
        auto *noteError = child<QLabel>(*dialog, "noteError");
        QTRY_VERIFY(noteError->isVisible());
        QVERIFY2(noteError->text().contains(QStringLiteral("Write why you close Imran's shift")),
                 qPrintable(noteError->text()));
        QVERIFY(day.shift(day.imran).isOpen());
        auto *note = child<QLineEdit>(*dialog, "closeNote");
        QVERIFY(note->hasFocus());
        QTest::keyClicks(note, QStringLiteral("Imran went home; counted by the owner"));
        saveShot(*dialog, QStringLiteral("shifts_admin_close"));
        QTest::keyClick(note, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!day.shift(day.imran).isOpen(), kTimeoutMs);
        const Shift closed = day.shift(day.imran);
        QCOMPARE(closed.closeNote, QStringLiteral("Imran went home; counted by the owner"));
        QCOMPARE(closed.closedBy, QStringLiteral("Owner"));
        QCOMPARE(closed.difference, std::optional<Paise>(-900));
        // The list and the detail follow without a reload.
        const int row = rowOfClerk(*model, QStringLiteral("Imran"));
        QTRY_COMPARE(model->index(row, ShiftListModel::DifferenceColumn).data().toString(),
                     QStringLiteral("Short ₹9.00"));
        QTRY_VERIFY(!close->isVisible());
        QVERIFY(child<QLabel>(*page, "generalError")->text().contains(QStringLiteral("Short ₹9.00")));
        QCOMPARE(child<QLabel>(*page, "closeNote")->text(), QStringLiteral("Imran went home; counted by the owner"));
    }

    void csvOfTheListedShifts()
    {
        ShiftDay day;
        auto &page = *new ShiftsPage(day.context);
        Window window(&page);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 3, kTimeoutMs);
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("shifts.csv"));
        QTest::mouseClick(child<QPushButton>(page, "exportButton"), Qt::LeftButton);
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page.findChild<QFileDialog *>(QStringLiteral("shiftsCsvDialog"))) &&
                                     dialog->isVisible(),
                                 kTimeoutMs);
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), kTimeoutMs);
        QVERIFY(child<QLabel>(page, "generalError")
                    ->text()
                    .startsWith(QStringLiteral("The shifts listed (3) are saved in")));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.endsWith("\r\n"));
        const QList<QByteArray> lines = content.split('\n');
        QCOMPARE(lines.size(), 5); // the header, three shifts, and nothing after the last CRLF
        QCOMPARE(lines.first() + '\n', CsvExport::line(ShiftsCsv::header()).toUtf8());
        const Shift asha = day.shift(day.asha);
        QVERIFY(lines.contains(CsvExport::line(ShiftsCsv::fields(asha)).toUtf8().chopped(1)));
        const QByteArray ashaLine = CsvExport::line(ShiftsCsv::fields(asha)).toUtf8();
        QVERIFY2(ashaLine.contains(",Counter 1,Asha,closed,") && ashaLine.contains(",2000.00,498.00,2,538.00,2,") &&
                     ashaLine.contains(",2398.00,2198.00,-200.00,"),
                 ashaLine.constData());
        // The open shift has no count yet: its counted cash and difference are empty, never 0.
        QVERIFY(CsvExport::line(ShiftsCsv::fields(day.shift(day.imran))).contains(QStringLiteral(",699.00,,,,")));
        QCOMPARE(ShiftsCsv::header().size(), ShiftsCsv::fields(asha).size());
    }

    void shiftReportOn58And80MmAndPdf()
    {
        ShiftDay day;
        const Shift asha = day.shift(day.asha);
        const ShiftReportPrint report(asha, day.context.shopName(), day.context.shopAddress());
        QStringList said;
        for (const ReceiptBlock &block : report.blocks())
            said << (block.text + QLatin1Char('|') + block.value);
        const QString text = said.join(u'\n');
        for (const QString &expected :
             {QStringLiteral("TEST MODE|"), QStringLiteral("Terminal|Counter 1"), QStringLiteral("Clerk|Asha"),
              QStringLiteral("Opening cash|₹2,000.00"), QStringLiteral("Cash · 2|₹498.00"),
              QStringLiteral("UPI · 2|₹538.00"), QStringLiteral("Cash out|-₹100.00"),
              QStringLiteral("Expected cash|₹2,398.00"), QStringLiteral("₹500 × 3|₹1,500.00"),
              QStringLiteral("Coins|₹8.00"), QStringLiteral("Counted cash|₹2,198.00"),
              QStringLiteral("Difference|Short ₹200.00"), QStringLiteral("Paid the tea supplier"),
              QStringLiteral("UPI to return|"), QStringLiteral("9876542222|₹299.00"), QStringLiteral("Closed by|Asha")})
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in:\n") + text));

        for (const ReceiptWidth width : {ReceiptWidth::Mm58, ReceiptWidth::Mm80}) {
            const int mm = ReceiptRenderer::paperWidthMm(width);
            const qreal printable = ReceiptRenderer::printableWidthDots(width);
            // Every value fits the roll (wrapped where it must, nothing dropped).
            for (const ReceiptBlock &block : report.blocks()) {
                if (block.kind != ReceiptBlock::Kind::Row && block.kind != ReceiptBlock::Kind::StrongRow)
                    continue;
                const QFontMetricsF metrics(ReceiptRenderer::valueFont(block, width));
                const QStringList lines = ReceiptRenderer::valueLines(block, width);
                for (const QString &line : lines)
                    QVERIFY2(metrics.horizontalAdvance(line) <= printable, qPrintable(line));
                QCOMPARE(lines.join(QString()).remove(u' '), QString(block.value).remove(u' '));
            }
            // On paper: no ink in the side margins nor on the last millimetre (nothing cut at the foot).
            const QImage image = report.toImage(width);
            QCOMPARE(image.width(), mm * ReceiptRenderer::kDotsPerMm);
            QVERIFY(image.height() > image.width());
            for (int y = 0; y < image.height(); ++y) {
                for (int x : {0, 1, 2, image.width() - 3, image.width() - 2, image.width() - 1})
                    QVERIFY(qGray(image.pixel(x, y)) > 200);
            }
            for (int y = image.height() - ReceiptRenderer::kDotsPerMm; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x)
                    QVERIFY(qGray(image.pixel(x, y)) > 200);
            }
            QVERIFY(image.save(kShots + QStringLiteral("/shift_report_%1mm.png").arg(mm)));
        }

        QTemporaryDir out;
        QString error;
        const QString pdf = out.filePath(QStringLiteral("shift.pdf"));
        QVERIFY2(report.writePdf(pdf, ReceiptWidth::Mm80, &error), qPrintable(error));
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith("%PDF-"));
        QTest::ignoreMessage(QtWarningMsg, "QPainter::begin(): Returned false");
        QVERIFY(!report.writePdf(out.filePath(QStringLiteral("missing/dir/shift.pdf")), ReceiptWidth::Mm80, &error));
        QVERIFY(!error.isEmpty());

        // The paper width is the terminal's receipt setting.
        day.context.settings().setValue(QStringLiteral("receipts/width_mm"), 58);
        QCOMPARE(ShiftReportPrint::paperWidth(day.context.settings()), ReceiptWidth::Mm58);
        day.context.settings().remove(QStringLiteral("receipts/width_mm"));
        QCOMPARE(ShiftReportPrint::paperWidth(day.context.settings()), ReceiptWidth::Mm80);
    }

    void printFromTheShiftsPagePreviewsTheReport()
    {
        ShiftDay day;
        auto &page = *new ShiftsPage(day.context);
        Window window(&page);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 3, kTimeoutMs);
        auto *print = child<QPushButton>(page, "printButton");
        QTRY_VERIFY(print->isEnabled());
        print->setFocus();
        QTest::keyClick(print, Qt::Key_Space);
        QPrintPreviewDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = page.findChild<QPrintPreviewDialog *>(QStringLiteral("shiftReportPrintDialog"))) &&
                dialog->isVisible(),
            kTimeoutMs);
        auto *preview = dialog->findChild<QPrintPreviewWidget *>();
        QTRY_VERIFY_WITH_TIMEOUT(preview->pageCount() == 1, kTimeoutMs); // one slip, one page
        dialog->resize(900, 700);
        saveShot(*dialog, QStringLiteral("shift_report_preview"));
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<QPrintPreviewDialog *>(), kTimeoutMs);

        // Save PDF: the slip on receipt paper, in the file chosen.
        QTemporaryDir out;
        const QString path = out.filePath(QStringLiteral("shift.pdf"));
        QTest::mouseClick(child<QPushButton>(page, "savePdfButton"), Qt::LeftButton);
        QFileDialog *files = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((files = page.findChild<QFileDialog *>(QStringLiteral("shiftPdfDialog"))) &&
                                     files->isVisible(),
                                 kTimeoutMs);
        files->selectFile(path);
        static_cast<QDialog *>(files)->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), kTimeoutMs);
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF-"));
        QVERIFY(child<QLabel>(page, "generalError")->text().startsWith(QStringLiteral("Shift report saved to")));
    }

    void dayEndShowsTendersAndShifts()
    {
        ShiftDay day;
        auto *view = new BackOfficeView(day.context);
        Window window(view);
        view->setCurrentWidget(view->dayEndPage());
        DayEndPage *page = view->dayEndPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->hasReport() && page->report().shifts.size() == 3, kTimeoutMs);
        // By tender: the day's successful sales (the failed UPI sale is not one).
        auto *tenders = child<QTableWidget>(*page, "tendersTable");
        QCOMPARE(tenders->rowCount(), 3);
        QCOMPARE(tenders->item(0, 0)->text(), QStringLiteral("Cash"));
        QCOMPARE(tenders->item(0, 1)->text(), QStringLiteral("4"));
        QCOMPARE(tenders->item(0, 2)->text(), QStringLiteral("₹946.00"));
        QCOMPARE(tenders->item(1, 0)->text(), QStringLiteral("UPI"));
        QCOMPARE(tenders->item(1, 2)->text(), QStringLiteral("₹239.00"));
        // The shifts, differences in words and colour.
        auto *shifts = child<QTableWidget>(*page, "shiftsTable");
        QCOMPARE(shifts->rowCount(), 3);
        QStringList differences;
        for (int row = 0; row < shifts->rowCount(); ++row) {
            QTableWidgetItem *item = shifts->item(row, 7);
            differences << item->text();
            if (item->text().startsWith(QLatin1String("Short")))
                QCOMPARE(item->foreground().color(), QColor(0xb4, 0x23, 0x18));
            if (item->text().startsWith(QLatin1String("Over")))
                QCOMPARE(item->foreground().color(), QColor(0xb5, 0x47, 0x08));
        }
        differences.sort();
        QCOMPARE(differences,
                 QStringList({QStringLiteral("Over ₹50.00"), QStringLiteral("Short ₹200.00"), QStringLiteral("—")}));
        saveShot(window.frame, QStringLiteral("dayend_top"));
        auto *scroll = child<QScrollArea>(*page, "reportScroll");
        scroll->ensureWidgetVisible(shifts, 0, 0);
        saveShot(window.frame, QStringLiteral("dayend_with_shifts"));
        // The paper says the same: one model for both.
        const QString html = DayEndPrint::toHtml(page->report(), day.context.catalog(), day.context.shopName(),
                                                 day.context.shopAddress());
        for (const QString &said :
             {QStringLiteral("By payment (successful sales)"), QStringLiteral("Shifts"), QStringLiteral("Counter 2"),
              QStringLiteral("color:#b42318; font-weight:bold;'>Short ₹200.00"),
              QStringLiteral("color:#b54708; font-weight:bold;'>Over ₹50.00")})
            QVERIFY2(html.contains(said), qPrintable(said));
        QTemporaryDir out;
        QString error;
        QVERIFY2(page->writePdf(out.filePath(QStringLiteral("z.pdf")), &error), qPrintable(error));
        // The printed report, previewed as Print shows it.
        QTest::mouseClick(child<QPushButton>(*page, "printButton"), Qt::LeftButton);
        QPrintPreviewDialog *preview = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (preview = page->findChild<QPrintPreviewDialog *>(QStringLiteral("reportPrintDialog"))) &&
                preview->isVisible(),
            kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(preview->findChild<QPrintPreviewWidget *>()->pageCount() >= 1, kTimeoutMs);
        preview->resize(1000, 760);
        preview->findChild<QPrintPreviewWidget *>()->setZoomFactor(0.9);
        saveShot(*preview, QStringLiteral("dayend_print_preview"));
        QTest::keyClick(preview, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!page->findChild<QPrintPreviewDialog *>(), kTimeoutMs);
        // A day without shifts has no Shifts section at all.
        DayEndReportData none = page->report();
        none.shifts.clear();
        QVERIFY(!DayEndReportModel::build(none, day.context.catalog()).section(QStringLiteral("shifts")));
        QVERIFY(DayEndReportModel::build(none, day.context.catalog()).section(QStringLiteral("tenders")));
    }

    void historyShowsAndFiltersThePayment()
    {
        ShiftDay day;
        auto &page = *new HistoryPage(day.context);
        Window window(&page);
        HistoryModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() == 6, kTimeoutMs);
        choose(child<QComboBox>(page, "tenderFilter"), QStringLiteral("UPI"));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().tender == QLatin1String("upi") && !model->isLoading(), kTimeoutMs);
        QCOMPARE(model->rowCount(), 2);
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->index(row, HistoryModel::TenderColumn).data().toString(), QStringLiteral("UPI"));
        QCOMPARE(model->headerData(HistoryModel::TenderColumn, Qt::Horizontal).toString(), QStringLiteral("Payment"));
        child<QTableView>(page, "historyTable")->selectRow(0);
        QTRY_VERIFY_WITH_TIMEOUT(page.detailPane()->record().has_value(), kTimeoutMs);
        auto *tender = page.findChild<QLabel *>(QStringLiteral("detailTender"));
        QTRY_VERIFY(tender && tender->text() == QLatin1String("UPI"));
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("detailShift"))->text().startsWith(QStringLiteral("Shift ")));
        QCOMPARE(CsvExport::fields(*page.detailPane()->record()).constLast(), QStringLiteral("upi"));
        QCOMPARE(CsvExport::header().constLast(), QStringLiteral("tender"));
        choose(child<QComboBox>(page, "tenderFilter"), QStringLiteral("Cash"));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().tender == QLatin1String("cash") && !model->isLoading(), kTimeoutMs);
        QCOMPARE(model->rowCount(), 4);
        choose(child<QComboBox>(page, "tenderFilter"), QStringLiteral("Not recorded"));
        QTRY_VERIFY_WITH_TIMEOUT(model->filter().tender == QLatin1String("none") && !model->isLoading(), kTimeoutMs);
        QCOMPARE(model->rowCount(), 0);
    }

    void settingsSaveShiftsAndTheUpiId()
    {
        ShiftDay day;
        auto &page = *new SettingsPage(day.context);
        Window window(&page);
        auto *vpa = child<QLineEdit>(page, "upiVpa");
        auto *shifts = child<QCheckBox>(page, "shiftsEnabledBox");
        auto *blind = child<QCheckBox>(page, "blindCountBox");
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLineEdit>(page, "shopThreshold")->text().isEmpty(), kTimeoutMs);
        QVERIFY(vpa->isEnabled()); // the Owner signed in with a PIN: live authority
        QVERIFY(!child<QLabel>(page, "upiLiveOnly")->isVisible());
        QVERIFY(!shifts->isChecked() && !blind->isChecked()); // off for an existing shop
        child<QLineEdit>(page, "shopName")->clear();
        QTest::keyClicks(child<QLineEdit>(page, "shopName"), QStringLiteral("Sharma Mobile Point"));

        // Ticked from the keyboard (Space), then a UPI ID without its handle: refused, with the reason, nothing saved.
        shifts->setFocus();
        QTest::keyClick(shifts, Qt::Key_Space);
        QTest::keyClick(shifts, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), blind);
        QTest::keyClick(blind, Qt::Key_Space);
        QTest::keyClick(blind, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), vpa);
        QTest::keyClicks(vpa, QStringLiteral("sharma mobile"));
        QTest::keyClick(vpa, Qt::Key_Tab);
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("Sharma Mobile Point"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        // The field errors of the Settings form are all named "fieldError" (FormErrors' handle): the one shown.
        const auto shownErrors = [&page] {
            QList<QLabel *> shown;
            for (QLabel *label : page.findChildren<QLabel *>(QStringLiteral("fieldError")))
                if (label->isVisible())
                    shown << label;
            return shown;
        };
        QTRY_COMPARE(shownErrors().size(), 1);
        QLabel *vpaError = shownErrors().constFirst();
        QVERIFY2(vpaError->text().contains(QStringLiteral("is not a UPI ID")) &&
                     vpaError->text().contains(QStringLiteral("name@handle")),
                 qPrintable(vpaError->text()));
        QCOMPARE(QApplication::focusWidget(), vpa);
        QVERIFY(!await(ShopApi(day.api).get()).value->shiftsEnabled);
        saveShot(window.frame, QStringLiteral("settings_vpa_refused"));

        vpa->selectAll();
        QTest::keyClicks(vpa, QStringLiteral("sharmamobile@okaxis"));
        QTest::keyClick(vpa, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "shopNotice")->isVisible(), kTimeoutMs);
        QVERIFY(!vpaError->isVisible());
        const ShopInfo saved = *await(ShopApi(day.api).get()).value;
        QVERIFY(saved.shiftsEnabled);
        QVERIFY(saved.blindCount);
        QCOMPARE(saved.upiVpa, QStringLiteral("sharmamobile@okaxis"));
        QCOMPARE(saved.upiPayeeName, QStringLiteral("Sharma Mobile Point"));
        QCOMPARE(day.context.shop().upiVpa, QStringLiteral("sharmamobile@okaxis")); // the counter's QR follows

        // This terminal: a bad drawer target is refused; then saved for the counter to read.
        auto *name = child<QLineEdit>(page, "terminalName");
        name->clear();
        QTest::keyClicks(name, QStringLiteral("Counter 7"));
        auto *drawer = child<QLineEdit>(page, "cashDrawer");
        QTest::keyClicks(drawer, QStringLiteral("bad/queue"));
        QTest::keyClick(drawer, Qt::Key_Return);
        QTRY_COMPARE(shownErrors().size(), 1);
        QVERIFY2(shownErrors().constFirst()->text().contains(QStringLiteral("queue")),
                 qPrintable(shownErrors().constFirst()->text()));
        QVERIFY(CounterPrefs(day.context.settings()).cashDrawer().isEmpty());
        drawer->clear();
        QTest::keyClicks(drawer, QStringLiteral("/dev/usb/lp0"));
        child<QCheckBox>(page, "printUpiQrBox")->setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QPushButton>(page, "saveCounter"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTRY_VERIFY(child<QLabel>(page, "counterNotice")->isVisible());
        const CounterPrefs prefs(day.context.settings());
        QCOMPARE(prefs.terminalName(), QStringLiteral("Counter 7"));
        QCOMPARE(prefs.cashDrawer(), QStringLiteral("/dev/usb/lp0"));
        QCOMPARE(prefs.customerDisplayScreen(), -1);
        QVERIFY(prefs.printUpiQr());
        // The customer display on a screen by its number, then off again.
        choose(child<QComboBox>(page, "customerDisplay"), child<QComboBox>(page, "customerDisplay")->itemText(1));
        QTest::keyClick(child<QPushButton>(page, "saveCounter"), Qt::Key_Space);
        QTRY_COMPARE(CounterPrefs(day.context.settings()).customerDisplayScreen(), 0);
        choose(child<QComboBox>(page, "customerDisplay"), QStringLiteral("Off"));
        QTest::keyClick(child<QPushButton>(page, "saveCounter"), Qt::Key_Space);
        QTRY_COMPARE(CounterPrefs(day.context.settings()).customerDisplayScreen(), -1);
        auto *scroll = page.findChild<QScrollArea *>();
        scroll->ensureWidgetVisible(child<QWidget>(page, "counterCard"));
        saveShot(window.frame, QStringLiteral("settings_shifts_upi_terminal"));
    }

    void settingsSaveTheComplaintDeadline()
    {
        // Issue 29: the shop's complaint deadline (hours) typed in the shop card, Ctrl+S, read back from the server.
        TerminalFixture shop;
        shop.signInAdmin();
        auto &page = *new SettingsPage(shop.context);
        Window window(&page);
        auto *deadline = child<QLineEdit>(page, "complaintDeadline");
        QTRY_COMPARE_WITH_TIMEOUT(deadline->text(), QStringLiteral("48"), kTimeoutMs); // the default, as served
        // FormErrors renames its labels "fieldError" (its test handle): the one shown is the deadline's.
        const auto shownError = [&page]() -> QLabel * {
            for (QLabel *label : page.findChildren<QLabel *>(QStringLiteral("fieldError")))
                if (label->isVisible())
                    return label;
            return nullptr;
        };
        child<QLineEdit>(page, "shopName")->clear(); // a name is needed to save the shop
        QTest::keyClicks(child<QLineEdit>(page, "shopName"), QStringLiteral("Sharma Mobile Point"));

        // Out of range (0 and 721): refused at the field with the range, focus kept there, nothing saved.
        for (const QString &bad : {QStringLiteral("0"), QStringLiteral("721")}) {
            deadline->setFocus();
            deadline->selectAll();
            QTest::keyClicks(deadline, bad);
            QTest::keyClick(deadline, Qt::Key_S, Qt::ControlModifier);
            QTRY_VERIFY(shownError() != nullptr);
            QVERIFY2(shownError()->text().contains(QStringLiteral("from 1 to 720")), qPrintable(shownError()->text()));
            QCOMPARE(QApplication::focusWidget(), deadline);
            QVERIFY(!child<QLabel>(page, "shopNotice")->isVisible());
            QCOMPARE(await(ShopApi(shop.api).get()).value->complaintDeadlineHours, 48);
        }
        saveShot(window.frame, QStringLiteral("i29_settings_deadline_refused"));
        deadline->selectAll();
        QTest::keyClick(deadline, Qt::Key_Backspace);
        QTest::keyClick(deadline, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(shownError() != nullptr); // empty is refused too
        QCOMPARE(QApplication::focusWidget(), deadline);

        deadline->selectAll();
        QTest::keyClicks(deadline, QStringLiteral("72"));
        QTest::keyClick(deadline, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(page, "shopNotice")->isVisible(), kTimeoutMs);
        QCOMPARE(shownError(), nullptr);
        QCOMPARE(await(ShopApi(shop.api).get()).value->complaintDeadlineHours, 72);

        // A fresh page reads it back from the server.
        auto &again = *new SettingsPage(shop.context);
        Window second(&again);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLineEdit>(again, "complaintDeadline")->text(), QStringLiteral("72"),
                                  kTimeoutMs);
        page.findChild<QScrollArea *>()->ensureWidgetVisible(deadline);
        saveShot(window.frame, QStringLiteral("i29_settings_deadline"));
    }

    void upiIdNeedsLiveAuthority()
    {
        // A terminal with only a test admin key and nobody signed in: the UPI ID shows, disabled, with the reason.
        TerminalFixture plain;
        auto &page = *new SettingsPage(plain.context);
        Window window(&page);
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLineEdit>(page, "shopThreshold")->text().isEmpty(), kTimeoutMs);
        QVERIFY(!child<QLineEdit>(page, "upiVpa")->isEnabled());
        QVERIFY(!child<QLineEdit>(page, "upiPayeeName")->isEnabled());
        auto *note = child<QLabel>(page, "upiLiveOnly");
        QVERIFY(note->isVisible());
        QVERIFY(note->text().contains(QStringLiteral("only an admin signed in with a PIN")));
    }
};

QTEST_MAIN(TestUiShifts)
#include "tst_ui_shifts.moc"

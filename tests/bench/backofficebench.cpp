// Back office at scale (issue 6): drives the real HistoryPage against a separate `rechargedesk
// serve` process over HTTP and prints figures, one "name value" per line. Not a test: the
// numbers are recorded by tests/bench/backoffice_scale.sh in docs/benchmarks.md.
//
// Environment: RD_BASE_URL (http://127.0.0.1:PORT), RD_KEY_ID, RD_KEY_SECRET, optionally
// RD_SERVER_PID (to report the server's memory) and RD_SCROLL_ROWS (default 10000).

#include "apiclient.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "terminalcontext.h"

#include <QApplication>
#include <QComboBox>
#include <QDateEdit>
#include <QElapsedTimer>
#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>

namespace {

/// VmHWM / VmRSS of a process, in MiB (-1 if unreadable).
double memoryMiB(const QString &pid, const char *field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(int(qstrlen(field))).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

/// Measures the longest gap between two turns of the event loop: a zero timer fires whenever the
/// loop is idle, so a long gap is time the GUI thread was busy (a stall the user would feel).
class StallMeter final : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(0);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0)
                m_longest = qMax(m_longest, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_longest = 0;
        m_last = 0;
        m_clock.start();
        m_timer.start();
    }
    double stopMs()
    {
        m_timer.stop();
        return double(m_longest) / 1e6;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

/// Runs the event loop until `done` or 60 s; returns the elapsed milliseconds (-1 on timeout).
double waitMs(const std::function<bool()> &done)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > 60'000)
            return -1;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    }
    return double(timer.nsecsElapsed()) / 1e6;
}

void print(const char *name, double value)
{
    std::printf("%s %.1f\n", name, value);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const QUrl base(qEnvironmentVariable("RD_BASE_URL"));
    const QString keyId = qEnvironmentVariable("RD_KEY_ID");
    const QString secret = qEnvironmentVariable("RD_KEY_SECRET");
    const int scrollRows =
        qEnvironmentVariableIsSet("RD_SCROLL_ROWS") ? qEnvironmentVariableIntValue("RD_SCROLL_ROWS") : 10'000;
    if (!base.isValid() || keyId.isEmpty() || secret.isEmpty()) {
        std::fprintf(stderr, "set RD_BASE_URL, RD_KEY_ID and RD_KEY_SECRET\n");
        return 2;
    }
    QTemporaryDir dir;
    ApiClient api(base, keyId, secret);
    TerminalContext context(api, dir.filePath(QStringLiteral("prefs.ini")));
    StallMeter stalls;

    // 1. Opening the history: construct the page (default filter: the last 7 days), show it and
    //    wait until the first page of rows is in the table and painted.
    QElapsedTimer open;
    open.start();
    stalls.start();
    HistoryPage page(context);
    page.resize(1366, 768);
    page.show();
    HistoryModel *model = page.model();
    if (waitMs([&] { return model->rowCount() > 0 && !model->isLoading(); }) < 0)
        return 1;
    page.repaint();
    print("open_first_page_ms", double(open.nsecsElapsed()) / 1e6);
    print("open_longest_stall_ms", stalls.stopMs());

    // 2. Applying filters (after the 300 ms typing debounce): until the first rows are shown.
    const QDate today = QDate::currentDate();
    struct Case
    {
        const char *name;
        std::function<void(HistoryFilter &)> change;
    };
    const QList<Case> cases{
        {"filter_all_2y_ms", [&](HistoryFilter &f) { f.from = today.addYears(-3); }},
        {"filter_status_failed_ms", [](HistoryFilter &f) { f.status = QStringLiteral("FAILED"); }},
        {"filter_operator_bsnl_ms", [](HistoryFilter &f) { f.status.clear(), f.operatorCode = QStringLiteral("BS"); }},
        {"filter_type_voucher_ms",
         [](HistoryFilter &f) { f.operatorCode.clear(), f.type = QStringLiteral("VOUCHER"); }},
        {"filter_text_number_prefix_ms", [](HistoryFilter &f) { f.type.clear(), f.text = QStringLiteral("98"); }},
        {"filter_sort_amount_desc_ms",
         [](HistoryFilter &f) { f.text.clear(), f.sort = HistoryFilter::Sort::AmountHigh; }},
        {"filter_one_day_failed_ms",
         [&](HistoryFilter &f) {
             f.sort = HistoryFilter::Sort::Newest;
             f.from = today.addDays(-30);
             f.to = today.addDays(-30);
             f.status = QStringLiteral("FAILED");
         }},
        // The amount order over one day (sorted from the date index, not walked; issue 6).
        {"filter_one_day_amount_desc_ms",
         [](HistoryFilter &f) { f.status.clear(), f.sort = HistoryFilter::Sort::AmountHigh; }},
    };
    HistoryFilter filter = model->filter();
    double worstFilter = 0;
    for (const Case &c : cases) {
        c.change(filter);
        stalls.start();
        QElapsedTimer timer;
        timer.start();
        model->setFilter(filter);
        if (waitMs([&] { return !model->isLoading(); }) < 0)
            return 1;
        page.repaint();
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        worstFilter = qMax(worstFilter, ms);
        std::printf("%s %.1f rows=%d stall_ms=%.1f\n", c.name, ms, model->rowCount(), stalls.stopMs());
    }
    print("filter_worst_ms", worstFilter);

    // The totals line (summary endpoint) of a filter over everything, and of the other filters.
    const QList<Case> summaries{
        {"summary_all_2y_ms", [&](HistoryFilter &f) { f.from = today.addYears(-3); }},
        {"summary_one_day_ms", [&](HistoryFilter &f) { f.from = today.addDays(-30), f.to = today.addDays(-30); }},
        {"summary_status_failed_2y_ms",
         [&](HistoryFilter &f) { f.from = today.addYears(-3), f.status = QStringLiteral("FAILED"); }},
        {"summary_operator_bsnl_2y_ms",
         [&](HistoryFilter &f) { f.from = today.addYears(-3), f.operatorCode = QStringLiteral("BS"); }},
        {"summary_type_voucher_2y_ms",
         [&](HistoryFilter &f) { f.from = today.addYears(-3), f.type = QStringLiteral("VOUCHER"); }},
        {"summary_text_number_prefix_2y_ms",
         [&](HistoryFilter &f) { f.from = today.addYears(-3), f.text = QStringLiteral("98"); }},
    };
    for (const Case &c : summaries) {
        HistoryFilter f;
        c.change(f);
        QElapsedTimer timer;
        timer.start();
        bool done = false;
        ApiCall *call = api.get(QStringLiteral("/api/v1/transactions/summary"), f.toQuery());
        QObject::connect(call, &ApiCall::finished, &page, [&](const ApiResult &) { done = true; });
        waitMs([&] { return done; });
        print(c.name, double(timer.nsecsElapsed()) / 1e6);
    }

    // 3. Scrolling to row N over two years of history, the way a user drags the scroll bar down:
    //    the view asks fetchMore() as it nears the end; measure the longest GUI stall.
    HistoryFilter all;
    all.from = today.addYears(-3);
    model->setFilter(all);
    waitMs([&] { return !model->isLoading(); });
    auto *table = page.findChild<QTableView *>(QStringLiteral("historyTable"));
    QElapsedTimer scroll;
    scroll.start();
    stalls.start();
    while (model->rowCount() < scrollRows) {
        table->scrollToBottom();
        if (waitMs([&] { return !model->isLoading(); }) < 0)
            return 1;
        QCoreApplication::processEvents();
        if (!model->canFetchMore())
            break;
    }
    table->scrollTo(model->index(scrollRows - 1, 0));
    page.repaint();
    print("scroll_rows", model->rowCount());
    print("scroll_total_ms", double(scroll.nsecsElapsed()) / 1e6);
    print("scroll_longest_stall_ms", stalls.stopMs());

    print("ui_vmhwm_mib", memoryMiB(QStringLiteral("self"), "VmHWM:"));
    print("ui_vmrss_mib", memoryMiB(QStringLiteral("self"), "VmRSS:"));
    const QString serverPid = qEnvironmentVariable("RD_SERVER_PID");
    if (!serverPid.isEmpty()) {
        print("server_vmhwm_mib", memoryMiB(serverPid, "VmHWM:"));
        print("server_vmrss_mib", memoryMiB(serverPid, "VmRSS:"));
    }
    return 0;
}

// Issue 5 benchmark, driven by tests/bench/terminal_startup.sh (moved out of the program in issue 14): opens
// the terminal exactly as `rechargedesk` does (openTerminal), and once the window is interactive prints the
// wall-clock time, then opens the plans of Jio/Mumbai and prints how long they took to show, the peak RSS,
// and quits.
#include "terminal/planspage.h"
#include "terminalcommand.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <cstdio>

namespace {

/// Peak resident memory of this process in KiB (VmHWM), 0 if unknown.
qint64 peakRssKib()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return 0;
}

/// Once the window is interactive: the time, then the plans of Jio/Mumbai, then quit.
void probe(MainWindow &window)
{
    QTimer::singleShot(0, &window, [&window] {
        std::printf("interactive_epoch_ms=%lld\n", QDateTime::currentMSecsSinceEpoch());
        std::fflush(stdout);
        if (!window.context()) {
            std::printf("peak_rss_kib=%lld\n", peakRssKib());
            QCoreApplication::quit();
            return;
        }
        auto *plans = new PlansPage(*window.context());
        plans->resize(1156, 700);
        auto *timer = new QElapsedTimer;
        QObject::connect(plans, &PlansPage::plansShown, plans, [plans, timer] {
            std::printf("plans_shown_ms=%.1f\npeak_rss_kib=%lld\n", double(timer->nsecsElapsed()) / 1e6, peakRssKib());
            std::fflush(stdout);
            delete timer;
            plans->deleteLater();
            QCoreApplication::quit();
        });
        timer->start();
        plans->show();
        plans->selectPair(QStringLiteral("RJ"), QStringLiteral("MU"));
    });
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RechargeDesk"));
    QCoreApplication::setApplicationName(QStringLiteral("rechargedesk"));
    int exitCode = 0;
    std::optional<TerminalSession> session = openTerminal(QCoreApplication::arguments(), &exitCode);
    if (!session)
        return exitCode;
    loadTerminalStyle(app);
    session->window->show();
    probe(*session->window);
    return QApplication::exec();
}

#pragma once

#include "mainwindow.h"
#include "serverhost.h"

#include <QStringList>

#include <memory>
#include <optional>

class QApplication;

/// The terminal as `rechargedesk` opens it: the embedded API server on its own thread (none with --server)
/// and the window that talks to it over HTTP. The window goes first when the session ends.
struct TerminalSession
{
    std::unique_ptr<ServerHost> host;   ///< null when the terminal uses a remote --server
    std::unique_ptr<MainWindow> window; ///< created, not shown yet
};

/// Reads the terminal's command line (`arguments` as QCoreApplication::arguments(): the program first) and the
/// data directory's terminal.ini, installs the language, starts the embedded server (with a first-run setup
/// token while the terminal has no key) and creates the window. Prints why and returns nullopt with *exitCode
/// set (2: usage, 1: the server cannot start) on failure. Needs a QApplication. runTerminal() then shows the
/// window; tests (tst_serverhost) and tests/bench/terminalstartupbench.cpp use it as it is.
std::optional<TerminalSession> openTerminal(const QStringList &arguments, int *exitCode);

/// The terminal's look: the Fusion style and ui/style.qss.
void loadTerminalStyle(QApplication &app);

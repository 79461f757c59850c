#pragma once

#include "entities/shift.h"

#include <QObject>
#include <QPointer>

class QDialog;
class QLabel;
class QPushButton;
class QStatusBar;
class QWidget;
class TerminalContext;

/// Shifts at the counter (issue 28). After a sign-in it reads the shop's settings and the person's open shift
/// (GET /api/v1/shifts/current), so a restarted terminal resumes the shift the server keeps; with the shop's shifts
/// on and none open it asks to open one before selling (OpenShiftDialog), as it does whenever a sale needs one
/// (TerminalContext::shiftNeeded, e.g. the server's 409 no_open_shift). The status bar shows the shift ("Shift:
/// Asha since 09:14 (Counter 1)") with Cash in/out (F9) and Close shift (F10), or Open shift (F10) when none is
/// open. Closing counts the drawer (CloseShiftDialog, the drawer opens for it), then shows the report with Print,
/// Open next shift and Sign out (ShiftClosedDialog). With shifts off and no shift open it shows nothing.
class ShiftController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShiftController)

public:
    /// The dialogs open over `window`, which also takes the keys F9 and F10; the shift line goes into `bar`.
    ShiftController(TerminalContext &context, QWidget *window, QStatusBar *bar, QObject *parent = nullptr);

    /// A person signed in: reads the shop's settings and their open shift; asks to open one if the shop needs it.
    void start();
    /// Opens the open-shift dialog; `why` leads its text ("" for none).
    void askToOpen(const QString &why = {});
    /// Opens the cash in / out dialog for the open shift.
    void cashInOut();
    /// Opens the close (count) dialog for the open shift.
    void closeShift();

    /// The shift dialog open now (open, cash move, close, closed), or nullptr.
    QDialog *dialog() const;
    /// The status bar's shift line ("" while hidden).
    QString statusText() const;
    QPushButton *cashMoveButton() const { return m_cashMove; }
    /// "Close shift (F10)" or "Open shift (F10)".
    QPushButton *shiftButton() const { return m_shiftButton; }
    /// True once start() has its answers (the shift is known, or known to be none).
    bool isReady() const { return m_ready; }

signals:
    /// The clerk closed the shift and chose Sign out.
    void signOutRequested();

private:
    bool signedIn() const;
    /// Shows `dialog` (deleted on close) window-modal over the window, as the one shift dialog.
    void show(QDialog *dialog);
    void onShiftKey();
    void onClosed(const Shift &shift);
    void showStatus();

    TerminalContext &m_context;
    QWidget *m_window;
    QWidget *m_bar;
    QLabel *m_line;
    QPushButton *m_cashMove;
    QPushButton *m_shiftButton;
    QPointer<QDialog> m_dialog;
    int m_session = 0; ///< counts sign-ins, so a late answer for an earlier person is dropped
    bool m_ready = false;
};

#pragma once

#include "entities/shift.h"

#include <QDialog>

class QLabel;
class QPushButton;
class TerminalContext;

/// What the close of a shift answered (issue 28): the difference large ("Short ₹158.00"), then the whole shift
/// report as it prints (ShiftReportPrint::sections: sales by tender, the drawer, cash moves, the count, UPI to send
/// back), and what comes next: Print report (P, the default: a print preview of the 58/80 mm slip), Open next shift
/// (N) or Sign out (S); Esc stays signed in without a shift. choice() tells which ended it.
class ShiftClosedDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShiftClosedDialog)

public:
    enum class Choice
    {
        Stay,
        OpenNext,
        SignOut
    };

    ShiftClosedDialog(TerminalContext &context, const Shift &shift, QWidget *parent = nullptr);

    Choice choice() const { return m_choice; }
    QLabel *differenceLabel() const { return m_difference; }
    QPushButton *printButton() const { return m_print; }
    QPushButton *openNextButton() const { return m_openNext; }
    QPushButton *signOutButton() const { return m_signOut; }
    /// True once the report went to a printer.
    bool printed() const { return m_printed; }

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void print();
    void finish(Choice choice);

    TerminalContext &m_context;
    Shift m_shift;
    Choice m_choice = Choice::Stay;
    bool m_printed = false;
    QLabel *m_difference;
    QPushButton *m_print;
    QPushButton *m_openNext;
    QPushButton *m_signOut;
};

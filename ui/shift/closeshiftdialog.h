#pragma once

#include "counterdialog.h"
#include "entities/shift.h"

class DigitsLineEdit;
class DrawerCount;
class QLabel;
class QLineEdit;
class TerminalContext;

/// Closes the person's shift by counting the drawer (issue 28, DrawerCount): the notes by denomination (₹500 … ₹10, a
/// count each) and the coins as one total, in whole rupees, with each line's value and the counted total live; the
/// expected cash and the difference beside it — unless the shop counts blind, when they show only in the close's
/// answer (ShiftClosedDialog). The shift is read again first, so the expected cash includes the last sale. An
/// optional note goes with the count. POST /api/v1/shifts/{id}/close; accepted once closed, closed() carries the
/// closed shift.
class CloseShiftDialog final : public CounterDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CloseShiftDialog)

public:
    CloseShiftDialog(TerminalContext &context, const Shift &shift, QWidget *parent = nullptr);

    /// The notes and coins as counted.
    DrawerCount *drawerCount() const { return m_count; }
    /// The count field of `denomination` (rupees: 500 … 10).
    DigitsLineEdit *countEdit(int denomination) const;
    DigitsLineEdit *coinsEdit() const;
    QLineEdit *noteEdit() const { return m_note; }
    /// "Counted ₹2,340.00".
    QLabel *countedLabel() const { return m_counted; }
    /// "Expected in the drawer ₹2,498.00", or what a blind count says.
    QLabel *expectedLabel() const { return m_expected; }
    /// "Difference: Short ₹158.00" / "Over ₹20.00" / "₹0.00"; hidden in a blind count.
    QLabel *differenceLabel() const { return m_difference; }
    /// The shift's figures so far (opening cash, sales by tender, cash in and out).
    QLabel *summaryLabel() const { return m_summary; }

signals:
    void closed(const Shift &shift);

protected:
    void onAccepted() override;

private:
    /// Shows `shift`'s figures so far and its expected cash.
    void showShift(const Shift &shift);
    void updateTotals();

    TerminalContext &m_context;
    Shift m_shift;
    DrawerCount *m_count;
    QLineEdit *m_note;
    QLabel *m_summary;
    QLabel *m_counted;
    QLabel *m_expected;
    QLabel *m_difference;
};

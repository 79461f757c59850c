#pragma once

#include "entities/shift.h"

#include <QDialog>
#include <QMap>

#include <memory>

class DigitsLineEdit;
class FormErrors;
class QLabel;
class QLineEdit;
class QPushButton;
class TerminalContext;

/// Back office → Shifts: an admin closes an open shift (issue 28), e.g. a clerk went home without closing: the
/// drawer's count by denomination (₹500 … ₹10 notes, coins as one total in rupees), with the counted cash and the
/// difference against the expected cash shown as typed, and a note — required when it is another person's shift
/// (the server's rule, 400 note_required; checked here first). POST /api/v1/shifts/{id}/close; closed() carries
/// the closed shift, then the dialog accepts. A plain counts form: the counter's own close dialog (ui/shift) is
/// the clerk's, tied to the terminal's current shift.
class AdminCloseShiftDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdminCloseShiftDialog)

public:
    AdminCloseShiftDialog(TerminalContext &context, const Shift &shift, QWidget *parent = nullptr);
    ~AdminCloseShiftDialog() override;

    /// The count of `denomination` (rupees, Shift::kDenominations), named "count_<denomination>".
    DigitsLineEdit *countEdit(int denomination) const { return m_counts.value(denomination); }
    DigitsLineEdit *coinsEdit() const { return m_coins; }
    QLineEdit *noteEdit() const { return m_note; }
    QPushButton *closeButton() const { return m_close; }
    /// "Counted ₹2,340.00 · Difference: Short ₹158.00".
    QLabel *totalsLabel() const { return m_totals; }
    /// True when the note must be written: the shift is not the signed-in admin's own.
    bool noteRequired() const;

signals:
    void closed(const Shift &shift);

private:
    QMap<int, qint64> counts() const;
    Paise coins() const;
    void updateTotals();
    void onCloseClicked();

    TerminalContext &m_context;
    Shift m_shift;
    QMap<int, DigitsLineEdit *> m_counts;
    DigitsLineEdit *m_coins;
    QLineEdit *m_note;
    QLabel *m_totals;
    QLabel *m_error;
    QPushButton *m_close;
    std::unique_ptr<FormErrors> m_errors;
};

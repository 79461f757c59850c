#pragma once

#include "counterdialog.h"
#include "entities/shift.h"

class DigitsLineEdit;
class QComboBox;
class QLineEdit;
class QRadioButton;
class TerminalContext;

/// Cash put into or taken out of the drawer during a shift (issue 28): out (the default) or in, the amount in whole
/// rupees, the reason from a short list for the direction or typed ("Other…"), confirmed with the person's PIN
/// (POST /api/v1/shifts/{id}/cash-moves; a wrong PIN shows at the PIN). Accepted once recorded; moved() carries
/// the shift after it.
class CashMoveDialog final : public CounterDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CashMoveDialog)

public:
    CashMoveDialog(TerminalContext &context, qint64 shiftId, QWidget *parent = nullptr);

    QRadioButton *outButton() const { return m_out; }
    QRadioButton *inButton() const { return m_in; }
    DigitsLineEdit *amountEdit() const { return m_amount; }
    QComboBox *reasonBox() const { return m_reason; }
    QLineEdit *otherReasonEdit() const { return m_other; }
    DigitsLineEdit *pinEdit() const { return m_pin; }
    /// "in" / "out" as chosen.
    QString direction() const;
    /// The reason as it is sent: the list's, or the typed one for "Other…".
    QString reason() const;

signals:
    void moved(const Shift &shift);

protected:
    void onAccepted() override;

private:
    /// Fills the reason list for the direction chosen.
    void fillReasons();
    void updateOther();

    TerminalContext &m_context;
    qint64 m_shiftId;
    QRadioButton *m_out;
    QRadioButton *m_in;
    DigitsLineEdit *m_amount;
    QComboBox *m_reason;
    QLineEdit *m_other;
    DigitsLineEdit *m_pin;
};

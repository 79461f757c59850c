#pragma once

#include "counterdialog.h"
#include "entities/shift.h"

class DigitsLineEdit;
class TerminalContext;

/// Opens the signed-in person's shift on this terminal (issue 28): the clerk counts the drawer's float and types it
/// (whole rupees); POST /api/v1/shifts with the terminal's name ("counter/terminal_name"). The server's refusal (a
/// shift already open for this person or terminal, named) shows at the top. Accepted once the shift is open;
/// opened() carries it.
class OpenShiftDialog final : public CounterDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OpenShiftDialog)

public:
    /// `why` is the first line of what the dialog says (e.g. "This shop sells within shifts."); may be empty.
    OpenShiftDialog(TerminalContext &context, const QString &why, QWidget *parent = nullptr);

    DigitsLineEdit *openingCashEdit() const { return m_openingCash; }

signals:
    void opened(const Shift &shift);

protected:
    void onAccepted() override;

private:
    TerminalContext &m_context;
    QString m_terminal;
    DigitsLineEdit *m_openingCash;
};

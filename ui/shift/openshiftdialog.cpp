#include "openshiftdialog.h"

#include "counterprefs.h"
#include "shiftsapi.h"
#include "terminalcontext.h"
#include "widgets/digitslineedit.h"

#include <QLabel>
#include <QPushButton>

namespace {

/// Whole rupees of an opening float: up to ₹9,99,999.
constexpr int kCashDigits = 6;

} // namespace

OpenShiftDialog::OpenShiftDialog(TerminalContext &context, const QString &why, QWidget *parent)
    : CounterDialog(tr("Open a shift"),
                    (why.isEmpty() ? QString() : why + QLatin1Char(' ')) +
                        tr("Count the cash in the drawer (the float) and type it. Every sale until you close the "
                           "shift is counted in it."),
                    parent),
      m_context(context), m_terminal(CounterPrefs(context.settings()).terminalName()),
      m_openingCash(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, kCashDigits, this))
{
    setObjectName(QStringLiteral("openShiftDialog"));
    auto *who = new QLabel(tr("%1 at terminal %2").arg(context.user().name, m_terminal), this);
    who->setObjectName(QStringLiteral("openShiftWho"));
    addSpanningRow(who);
    m_openingCash->setObjectName(QStringLiteral("openingCash"));
    m_openingCash->setPlaceholderText(tr("e.g. 2000"));
    addRow(tr("Opening cash ₹"), m_openingCash, QStringLiteral("opening_cash"));
    setActions(tr("Open shift (Enter)"), tr("Not now (Esc)"));
    connect(m_openingCash, &DigitsLineEdit::refused, this,
            [this](const QString &reason) { errors().showAt(QStringLiteral("opening_cash"), reason); });
    m_openingCash->setFocus();
}

void OpenShiftDialog::onAccepted()
{
    errors().clear();
    if (m_openingCash->text().isEmpty())
        errors().showAt(QStringLiteral("opening_cash"),
                        tr("Type the cash in the drawer now, in rupees (0 if it is empty)."), m_openingCash);
    if (showProblems())
        return;
    setBusy(true, tr("Opening…"));
    const Paise opening = m_openingCash->text().toLongLong() * Money::kPaisePerRupee;
    ShiftsApi(m_context.api()).open(m_terminal, opening).then(this, [this](const Answer<Shift> &answer) {
        setBusy(false);
        if (!answer.ok()) {
            errors().show(*answer.error);
            showProblems();
            m_openingCash->setFocus();
            return;
        }
        m_context.setCurrentShift(*answer.value);
        emit opened(*answer.value);
        accept();
    });
}

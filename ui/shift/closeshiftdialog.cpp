#include "closeshiftdialog.h"

#include "clock.h"
#include "drawercount.h"
#include "receipts/shiftwording.h"
#include "shiftsapi.h"
#include "shiftwords.h"
#include "terminalcontext.h"
#include "widgets/digitslineedit.h"
#include "widgets/look.h"

#include <QLabel>
#include <QLineEdit>

namespace {

constexpr int kMaxNote = 300;

} // namespace

CloseShiftDialog::CloseShiftDialog(TerminalContext &context, const Shift &shift, QWidget *parent)
    : CounterDialog(tr("Close the shift"),
                    tr("Count the drawer: the number of notes of each kind, then the coins as one amount. Enter goes "
                       "to the next field."),
                    parent),
      m_context(context), m_shift(shift), m_count(new DrawerCount(this)), m_note(new QLineEdit(this)),
      m_summary(new QLabel(this)), m_counted(new QLabel(this)), m_expected(new QLabel(this)),
      m_difference(new QLabel(this))
{
    setObjectName(QStringLiteral("closeShiftDialog"));
    m_summary->setObjectName(QStringLiteral("closeShiftSummary"));
    m_summary->setWordWrap(true);
    addSpanningRow(m_summary);
    addSpanningRow(m_count);
    addToEnterOrder(m_count->inputs());
    // API errors about the count (a bad denomination or number) show under it.
    QLabel *countError = FormErrors::makeLabel(this);
    countError->setObjectName(QStringLiteral("error_counts"));
    errors().addField(QStringLiteral("counts"), countError);
    errors().addField(QStringLiteral("coins"), countError);
    addSpanningRow(countError);
    m_counted->setObjectName(QStringLiteral("countedTotal"));
    Look::set(m_counted, "reportValue");
    addSpanningRow(m_counted);
    m_expected->setObjectName(QStringLiteral("expectedCash"));
    m_expected->setWordWrap(true);
    addSpanningRow(m_expected);
    m_difference->setObjectName(QStringLiteral("difference"));
    addSpanningRow(m_difference);
    m_note->setObjectName(QStringLiteral("closeNote"));
    m_note->setMaxLength(kMaxNote);
    m_note->setPlaceholderText(tr("optional, e.g. why the drawer is short"));
    addRow(tr("Note"), m_note, QStringLiteral("note"));
    setActions(tr("Close shift (Enter)"), tr("Cancel (Esc)"));
    connect(m_count, &DrawerCount::changed, this, &CloseShiftDialog::updateTotals);
    connect(m_count, &DrawerCount::refused, this,
            [this](const QString &reason) { errors().showAt(QStringLiteral("counts"), reason); });

    showShift(shift);
    countEdit(Shift::kDenominations.front())->setFocus();
    // The expected cash as of now: the shift read again, with the sales since it was last shown.
    ShiftsApi(context.api()).get(shift.id).then(this, [this](const Answer<Shift> &answer) {
        if (answer.ok() && answer.value->isOpen())
            showShift(*answer.value);
    });
}

DigitsLineEdit *CloseShiftDialog::countEdit(int denomination) const
{
    return m_count->countEdit(denomination);
}

DigitsLineEdit *CloseShiftDialog::coinsEdit() const
{
    return m_count->coinsEdit();
}

void CloseShiftDialog::showShift(const Shift &shift)
{
    m_shift = shift;
    // A blind count shows none of the shift's figures: they would give the expected cash away.
    m_summary->setText(shift.expectedCash ? ShiftWords::soFar(shift)
                                          : tr("Opened %1").arg(IstTime::timeOfDay(shift.openedAt)));
    if (shift.expectedCash)
        m_expected->setText(tr("Expected in the drawer: %1").arg(Money::formatIndian(*shift.expectedCash)));
    else
        m_expected->setText(tr("Blind count: the expected cash and the difference show once the shift is closed."));
    Look::set(m_expected, shift.expectedCash ? "strong" : "hint");
    updateTotals();
}

void CloseShiftDialog::updateTotals()
{
    const Paise counted = m_count->total();
    m_counted->setText(tr("Counted: %1").arg(Money::formatIndian(counted)));
    m_difference->setVisible(m_shift.expectedCash.has_value());
    if (m_shift.expectedCash) {
        const Paise difference = counted - *m_shift.expectedCash;
        m_difference->setText(tr("Difference: %1").arg(ShiftWording::differenceText(difference)));
        Look::set(m_difference, difference < 0 ? "problem" : difference > 0 ? "warning" : "notice");
    }
}

void CloseShiftDialog::onAccepted()
{
    errors().clear();
    if (!m_count->isTyped())
        errors().showAt(QStringLiteral("counts"),
                        tr("Type the count first: the notes of each kind (0 for none) and the coins."),
                        countEdit(Shift::kDenominations.front()));
    if (showProblems())
        return;
    setBusy(true, tr("Closing…"));
    ShiftsApi(m_context.api())
        .close(m_shift.id, m_count->counts(), m_count->coins(), m_note->text().trimmed())
        .then(this, [this](const Answer<Shift> &answer) {
            setBusy(false);
            if (!answer.ok()) {
                errors().show(*answer.error);
                showProblems();
                if (answer.error->reason() == QLatin1String("shift_closed"))
                    m_context.setCurrentShift(std::nullopt); // closed elsewhere (an admin): nothing left to close
                return;
            }
            m_context.setCurrentShift(std::nullopt);
            emit closed(*answer.value);
            accept();
        });
}

#include "cashmovedialog.h"

#include "shiftsapi.h"
#include "terminalcontext.h"
#include "widgets/digitslineedit.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>

namespace {

/// Whole rupees of one move: the API takes up to ₹1,00,000.
constexpr int kAmountDigits = 6;
constexpr int kPinDigits = 8;
constexpr int kMaxReason = 120;

} // namespace

CashMoveDialog::CashMoveDialog(TerminalContext &context, qint64 shiftId, QWidget *parent)
    : CounterDialog(tr("Cash in / out"),
                    tr("Money put into or taken out of the drawer outside a sale, with the reason. It is kept in the "
                       "shift's record under your name."),
                    parent),
      m_context(context), m_shiftId(shiftId), m_out(new QRadioButton(tr("&Out — take cash from the drawer"), this)),
      m_in(new QRadioButton(tr("&In — put cash into the drawer"), this)),
      m_amount(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, kAmountDigits, this)), m_reason(new QComboBox(this)),
      m_other(new QLineEdit(this)), m_pin(new DigitsLineEdit(DigitsLineEdit::Kind::Digits, kPinDigits, this))
{
    setObjectName(QStringLiteral("cashMoveDialog"));
    m_out->setObjectName(QStringLiteral("cashOut"));
    m_in->setObjectName(QStringLiteral("cashIn"));
    auto *directions = new QButtonGroup(this);
    directions->addButton(m_out);
    directions->addButton(m_in);
    m_out->setChecked(true);
    auto *directionBox = new QWidget(this);
    auto *directionRow = new QHBoxLayout(directionBox);
    directionRow->setContentsMargins(0, 0, 0, 0);
    directionRow->addWidget(m_out);
    directionRow->addWidget(m_in);
    directionRow->addStretch();
    m_amount->setObjectName(QStringLiteral("cashMoveAmount"));
    m_reason->setObjectName(QStringLiteral("cashMoveReason"));
    m_other->setObjectName(QStringLiteral("cashMoveOther"));
    m_other->setMaxLength(kMaxReason);
    m_other->setPlaceholderText(tr("What the cash is for"));
    m_pin->setObjectName(QStringLiteral("cashMovePin"));
    m_pin->setEchoMode(QLineEdit::Password);

    addRow(tr("Direction"), directionBox, QString());
    addRow(tr("Amount ₹"), m_amount, QStringLiteral("amount"));
    addRow(tr("Reason"), m_reason, QStringLiteral("reason"));
    addRow(tr("Other reason"), m_other, QStringLiteral("other"));
    addRow(tr("Your PIN"), m_pin, QStringLiteral("pin"));
    // Tab goes through the direction buttons (arrows switch between them), then the fields.
    setTabOrder(m_out, m_in);
    setTabOrder(m_in, m_amount);
    setActions(tr("Record cash out (Enter)"), tr("Cancel (Esc)"));
    fillReasons();

    connect(m_out, &QRadioButton::toggled, this, [this] {
        fillReasons();
        setActions(m_out->isChecked() ? tr("Record cash out (Enter)") : tr("Record cash in (Enter)"),
                   tr("Cancel (Esc)"));
    });
    connect(m_reason, &QComboBox::currentIndexChanged, this, &CashMoveDialog::updateOther);
    for (DigitsLineEdit *edit : {m_amount, m_pin}) {
        const QString field = edit == m_pin ? QStringLiteral("pin") : QStringLiteral("amount");
        connect(edit, &DigitsLineEdit::refused, this,
                [this, field](const QString &reason) { errors().showAt(field, reason); });
    }
    m_amount->setFocus();
}

QString CashMoveDialog::direction() const
{
    return m_in->isChecked() ? QStringLiteral("in") : QStringLiteral("out");
}

QString CashMoveDialog::reason() const
{
    return m_reason->currentData().toBool() ? m_other->text().trimmed() : m_reason->currentText();
}

void CashMoveDialog::fillReasons()
{
    // The usual reasons of a counter; the last entry ("Other…", data true) takes a typed one.
    const QStringList reasons = m_in->isChecked()
                                    ? QStringList{tr("Float added"), tr("Change from the bank")}
                                    : QStringList{tr("Paid a supplier"), tr("Owner took cash"), tr("Bank deposit")};
    m_reason->clear();
    for (const QString &reason : reasons)
        m_reason->addItem(reason, false);
    m_reason->addItem(tr("Other…"), true);
    updateOther();
}

void CashMoveDialog::updateOther()
{
    m_other->setEnabled(m_reason->currentData().toBool());
}

void CashMoveDialog::onAccepted()
{
    errors().clear();
    const qint64 rupees = m_amount->text().toLongLong();
    if (rupees <= 0)
        errors().showAt(QStringLiteral("amount"), tr("Type the amount in rupees."), m_amount);
    else if (rupees > 100'000)
        errors().showAt(QStringLiteral("amount"), tr("At most ₹1,00,000 at a time."), m_amount);
    if (reason().isEmpty())
        errors().showAt(QStringLiteral("other"), tr("Say what the cash is for."), m_other);
    if (m_pin->text().size() < 4)
        errors().showAt(QStringLiteral("pin"), tr("Type your PIN to confirm."), m_pin);
    if (showProblems())
        return;
    setBusy(true, tr("Recording…"));
    ShiftsApi(m_context.api())
        .cashMove(m_shiftId, direction(), rupees * Money::kPaisePerRupee, reason(), m_pin->text())
        .then(this, [this](const Answer<Shift> &answer) {
            setBusy(false);
            if (!answer.ok()) {
                m_pin->clear();
                // The API names the field it refuses; a wrong PIN goes to the PIN.
                if (answer.error->reason() == QLatin1String("wrong_pin"))
                    errors().showAt(QStringLiteral("pin"), answer.error->description(), m_pin);
                else
                    errors().show(*answer.error);
                showProblems();
                return;
            }
            m_context.setCurrentShift(*answer.value);
            emit moved(*answer.value);
            accept();
        });
}

#include "admincloseshiftdialog.h"

#include "backofficeui.h"
#include "receipts/shiftwording.h"
#include "shiftsapi.h"
#include "terminalcontext.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

constexpr int kCountDigits = 5; ///< notes of one denomination: up to 99,999
constexpr int kCoinDigits = 6;  ///< whole rupees of coins
constexpr int kMaxNote = 300;   ///< the API's limit

} // namespace

AdminCloseShiftDialog::AdminCloseShiftDialog(TerminalContext &context, const Shift &shift, QWidget *parent)
    : QDialog(parent), m_context(context), m_shift(shift),
      m_coins(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, kCoinDigits, this)), m_note(new QLineEdit(this)),
      m_totals(new QLabel(this)), m_error(BackOfficeUi::generalError(this)),
      m_close(new QPushButton(tr("&Close the shift"), this)), m_errors(std::make_unique<FormErrors>(m_error))
{
    setObjectName(QStringLiteral("adminCloseShiftDialog"));
    setWindowTitle(tr("Close %1's shift").arg(shift.clerk));
    setWindowModality(Qt::WindowModal);
    setMinimumWidth(560);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::heading(tr("Close %1's shift on %2").arg(shift.clerk, shift.terminal), this));
    layout->addWidget(BackOfficeUi::hint(tr("Count the drawer of this shift: the notes of each kind, then the coins as "
                                            "one amount in rupees. The note tells the clerk and the day-end report "
                                            "why an admin closed it."),
                                         this));
    auto *expected = new QLabel(
        tr("Expected in the drawer: %1").arg(ShiftWording::moneyText(shift.expectedCash, tr("not known"))), this);
    expected->setObjectName(QStringLiteral("expectedCash"));
    Look::set(expected, "strong");
    layout->addWidget(expected);
    layout->addWidget(m_error);

    auto *form = new QFormLayout;
    for (const int denomination : Shift::kDenominations) {
        auto *count = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, kCountDigits, this);
        count->setObjectName(QStringLiteral("count_%1").arg(denomination));
        count->setPlaceholderText(QStringLiteral("0"));
        m_counts.insert(denomination, count);
        form->addRow(tr("₹%1 notes ×").arg(denomination), count);
        connect(count, &QLineEdit::textChanged, this, &AdminCloseShiftDialog::updateTotals);
        connect(count, &QLineEdit::returnPressed, this, [this] { focusNextChild(); });
    }
    auto *countsError = FormErrors::makeLabel(this);
    form->addRow(QString(), countsError);
    m_coins->setObjectName(QStringLiteral("coins"));
    m_coins->setPlaceholderText(QStringLiteral("0"));
    form->addRow(tr("Coins, total ₹"), m_coins);
    auto *coinsError = FormErrors::makeLabel(this);
    form->addRow(QString(), coinsError);
    connect(m_coins, &QLineEdit::textChanged, this, &AdminCloseShiftDialog::updateTotals);
    connect(m_coins, &QLineEdit::returnPressed, this, [this] { m_note->setFocus(); });
    m_note->setObjectName(QStringLiteral("closeNote"));
    m_note->setMaxLength(kMaxNote);
    m_note->setPlaceholderText(noteRequired() ? tr("required: why you close this shift")
                                              : tr("optional, e.g. why the drawer is short"));
    form->addRow(tr("Note"), m_note);
    auto *noteError = FormErrors::makeLabel(this);
    form->addRow(QString(), noteError);
    connect(m_note, &QLineEdit::returnPressed, this, &AdminCloseShiftDialog::onCloseClicked);
    layout->addLayout(form);
    countsError->setObjectName(QStringLiteral("countsError"));
    coinsError->setObjectName(QStringLiteral("coinsError"));
    noteError->setObjectName(QStringLiteral("noteError"));
    m_errors->addField(QStringLiteral("counts"), countsError);
    m_errors->addField(QStringLiteral("coins"), coinsError);
    m_errors->addField(QStringLiteral("note"), noteError);

    m_totals->setObjectName(QStringLiteral("countTotals"));
    Look::set(m_totals, "emphasis");
    layout->addWidget(m_totals);

    auto *buttons = new QDialogButtonBox(this);
    m_close->setObjectName(QStringLiteral("closeShiftButton"));
    BackOfficeUi::makePrimary(m_close);
    m_close->setAutoDefault(false);
    buttons->addButton(m_close, QDialogButtonBox::ActionRole);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setAutoDefault(false);
    connect(m_close, &QPushButton::clicked, this, &AdminCloseShiftDialog::onCloseClicked);
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    layout->addWidget(buttons);

    // Tab and Enter go down the count as it reads: the notes largest first, the coins, the note, then the buttons.
    QWidget *previous = nullptr;
    QList<QWidget *> order;
    for (const int denomination : Shift::kDenominations)
        order << m_counts.value(denomination);
    order << m_coins << m_note << m_close << cancel;
    for (QWidget *next : std::as_const(order)) {
        if (previous)
            setTabOrder(previous, next);
        previous = next;
    }
    updateTotals();
    m_counts.value(Shift::kDenominations.front())->setFocus();
}

AdminCloseShiftDialog::~AdminCloseShiftDialog() = default;

bool AdminCloseShiftDialog::noteRequired() const
{
    return m_shift.clerk.compare(m_context.user().name, Qt::CaseInsensitive) != 0;
}

QMap<int, qint64> AdminCloseShiftDialog::counts() const
{
    QMap<int, qint64> counts;
    for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it)
        counts.insert(it.key(), it.value()->text().toLongLong());
    return counts;
}

Paise AdminCloseShiftDialog::coins() const
{
    return m_coins->text().toLongLong() * Money::kPaisePerRupee;
}

void AdminCloseShiftDialog::updateTotals()
{
    const Paise counted = Shift::countedTotal(counts(), coins());
    QString text = tr("Counted: %1").arg(Money::formatIndian(counted));
    if (m_shift.expectedCash)
        text += tr(" · Difference: %1").arg(ShiftWording::differenceText(counted - *m_shift.expectedCash));
    m_totals->setText(text);
}

void AdminCloseShiftDialog::onCloseClicked()
{
    if (!m_close->isEnabled())
        return;
    m_errors->clear();
    bool typed = !m_coins->text().isEmpty();
    for (const DigitsLineEdit *edit : std::as_const(m_counts))
        typed = typed || !edit->text().isEmpty();
    if (!typed) {
        m_errors->showAt(QStringLiteral("counts"),
                         tr("Type the count first: the notes of each kind (0 for none) and the coins."),
                         m_counts.value(Shift::kDenominations.front()));
    }
    if (noteRequired() && m_note->text().trimmed().isEmpty()) {
        m_errors->showAt(
            QStringLiteral("note"),
            tr("Write why you close %1's shift: the clerk and the day-end report see it.").arg(m_shift.clerk), m_note);
    }
    if (QWidget *problem = m_errors->firstProblem()) {
        adjustSize(); // room for the error lines
        problem->setFocus();
        return;
    }
    m_close->setEnabled(false);
    m_close->setText(tr("Closing…"));
    ShiftsApi(m_context.api())
        .close(m_shift.id, counts(), coins(), m_note->text().trimmed())
        .then(this, [this](const Answer<Shift> &answer) {
            m_close->setEnabled(true);
            m_close->setText(tr("&Close the shift"));
            if (!answer.ok()) {
                m_errors->show(*answer.error);
                adjustSize();
                return;
            }
            // The admin's own shift at this terminal: the counter no longer has it open.
            if (m_context.currentShift() && m_context.currentShift()->id == answer.value->id)
                m_context.setCurrentShift(std::nullopt);
            emit closed(*answer.value);
            accept();
        });
}

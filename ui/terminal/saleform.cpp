#include "saleform.h"

#include "apierror.h"
#include "widgets/digitslineedit.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace {

QLabel *makeGeneralLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("generalError"));
    Look::set(label, "generalError");
    label->setWordWrap(true);
    label->hide();
    return label;
}

} // namespace

SaleForm::SaleForm(QWidget *parent)
    : QWidget(parent), m_layout(new QGridLayout), m_general(makeGeneralLabel(this)),
      m_continue(new QPushButton(tr("Continue (Enter)"), this)), m_continueText(m_continue->text()), m_errors(m_general)
{
    Look::set(this, "card");
    setAttribute(Qt::WA_StyledBackground);
    m_general->setParent(this);
    Look::set(m_continue, "action");
    m_continue->setAutoDefault(true);
    // A grid rather than a QFormLayout: word-wrapped hints and errors under an input keep
    // their height there, also with the large kiosk fonts.
    m_layout->setVerticalSpacing(10);
    m_layout->setHorizontalSpacing(16);
    m_layout->setColumnStretch(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 16, 20, 16);
    layout->addWidget(m_general);
    layout->addLayout(m_layout);
    layout->addSpacing(8);
    layout->addWidget(m_continue);
    connect(m_continue, &QPushButton::clicked, this, &SaleForm::submit);
}

void SaleForm::addField(const QString &label, QWidget *input, const QString &field, Check check, Ready liveReady)
{
    QLabel *error = FormErrors::makeLabel(this);
    error->setProperty("field", field);
    m_errors.addField(field, error);
    if (!m_entries.isEmpty())
        setTabOrder(m_entries.constLast().input, input);
    setTabOrder(input, m_continue);
    // The input, its hints and its error stacked in one cell, so hidden parts take no space.
    auto *cell = new QVBoxLayout;
    cell->setSpacing(2);
    cell->addWidget(input);
    cell->addWidget(error);
    m_entries.append(Entry{field, input, error, cell, std::move(check), std::move(liveReady)});
    const int row = m_layout->rowCount();
    auto *name = new QLabel(label, this);
    name->setBuddy(input);
    name->setMinimumHeight(input->sizeHint().height());
    name->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_layout->addWidget(name, row, 0, Qt::AlignTop);
    m_layout->addLayout(cell, row, 1);

    if (auto *digits = qobject_cast<DigitsLineEdit *>(input)) {
        // Refused keys and pastes: the reason goes where the field's problems go, at once.
        connect(digits, &DigitsLineEdit::refused, this, [this, field](const QString &reason) {
            const Entry *entry = find(field);
            entry->error->setText(reason);
            entry->error->show();
            markInvalid(entry->input, true);
        });
        connect(digits, &DigitsLineEdit::refusalCleared, this, [this, field] { runCheck(*find(field)); });
    }
    if (auto *edit = qobject_cast<QLineEdit *>(input)) {
        connect(edit, &QLineEdit::textChanged, this, [this, field] {
            const Entry *entry = find(field);
            if ((entry->liveReady && entry->liveReady()) || entry->error->isVisible())
                runCheck(*entry);
        });
        connect(edit, &QLineEdit::editingFinished, this, [this, field, edit] {
            if (!edit->text().isEmpty())
                runCheck(*find(field));
        });
    } else if (auto *combo = qobject_cast<QComboBox *>(input)) {
        combo->setSizePolicy(QSizePolicy::Expanding, combo->sizePolicy().verticalPolicy());
        connect(combo, &QComboBox::currentIndexChanged, this, [this, field] {
            const Entry *entry = find(field);
            if (entry->error->isVisible())
                runCheck(*entry);
        });
    }
}

QLabel *SaleForm::addHint(const QString &text)
{
    auto *hint = new QLabel(text, this);
    hint->setObjectName(QStringLiteral("hint"));
    Look::set(hint, "hint");
    hint->setWordWrap(true);
    addBelow(hint);
    setHint(hint, text);
    return hint;
}

void SaleForm::addBelow(QWidget *widget)
{
    // Under the input of the last field, above its error label.
    QVBoxLayout *cell = m_entries.constLast().cell;
    cell->insertWidget(cell->count() - 1, widget);
}

void SaleForm::setBusy(const QString &text)
{
    m_continue->setEnabled(text.isEmpty());
    m_continue->setText(text.isEmpty() ? m_continueText : text);
}

void SaleForm::setHint(QLabel *hint, const QString &text)
{
    hint->setText(text);
    hint->setVisible(!text.isEmpty());
}

void SaleForm::recheck(const QString &field)
{
    const Entry *entry = find(field);
    if (!entry)
        return;
    const auto *edit = qobject_cast<const QLineEdit *>(entry->input);
    if (entry->error->isVisible() || (edit && !edit->text().isEmpty()))
        runCheck(*entry);
}

bool SaleForm::validate()
{
    m_general->hide();
    QWidget *firstBad = nullptr;
    for (const Entry &entry : std::as_const(m_entries)) {
        if (!runCheck(entry) && !firstBad)
            firstBad = entry.input;
    }
    if (firstBad)
        firstBad->setFocus(Qt::OtherFocusReason);
    return !firstBad;
}

void SaleForm::showError(const ApiError &error)
{
    m_errors.show(error);
    if (const Entry *entry = find(error.field())) {
        markInvalid(entry->input, true);
        entry->input->setFocus(Qt::OtherFocusReason);
    }
}

void SaleForm::showGeneral(const QString &message)
{
    m_errors.showAt(QString(), message);
}

void SaleForm::clearErrors()
{
    m_errors.clear();
    for (const Entry &entry : std::as_const(m_entries))
        markInvalid(entry.input, false);
}

void SaleForm::focusFirst()
{
    if (!m_entries.isEmpty())
        m_entries.constFirst().input->setFocus(Qt::OtherFocusReason);
}

QLabel *SaleForm::errorLabel(const QString &field) const
{
    const Entry *entry = find(field);
    return entry ? entry->error : nullptr;
}

QWidget *SaleForm::input(const QString &field) const
{
    const Entry *entry = find(field);
    return entry ? entry->input : nullptr;
}

void SaleForm::keyPressEvent(QKeyEvent *event)
{
    // Line edits and combo boxes pass Enter on to their parent: Enter anywhere submits.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        submit();
        return;
    }
    QWidget::keyPressEvent(event);
}

const SaleForm::Entry *SaleForm::find(const QString &field) const
{
    for (const Entry &entry : m_entries) {
        if (entry.field == field)
            return &entry;
    }
    return nullptr;
}

bool SaleForm::runCheck(const Entry &entry)
{
    // A refused decimal separator stands until the clerk fixes the amount: never submit "49"
    // for a typed "49.50" without the clerk seeing it.
    const auto *digits = qobject_cast<const DigitsLineEdit *>(entry.input);
    const QString problem = digits && digits->refusalPending() ? digits->pendingReason()
                            : entry.check                      ? entry.check()
                                                               : QString();
    entry.error->setText(problem);
    entry.error->setVisible(!problem.isEmpty());
    markInvalid(entry.input, !problem.isEmpty());
    return problem.isEmpty();
}

void SaleForm::markInvalid(QWidget *input, bool invalid)
{
    if (input->property("invalid").toBool() == invalid)
        return;
    input->setProperty("invalid", invalid);
    input->style()->unpolish(input);
    input->style()->polish(input);
}

void SaleForm::submit()
{
    emit aboutToSubmit();
    if (validate())
        emit submitted();
}

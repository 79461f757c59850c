#include "resolvecomplaintdialog.h"

#include "complaintsapi.h"
#include "money.h"
#include "raisecomplaintdialog.h"
#include "terminalcontext.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

ResolveComplaintDialog::ResolveComplaintDialog(TerminalContext &context, const Complaint &complaint, QWidget *parent)
    : QDialog(parent), m_context(context), m_complaintId(complaint.id),
      m_credited(new QRadioButton(tr("&Credited back — reverse the sale and refund it"), this)),
      m_rejected(new QRadioButton(tr("Re&jected"), this)), m_words(new QLineEdit(this)),
      m_reference(new QLineEdit(this))
{
    setObjectName(QStringLiteral("resolveComplaintDialog"));
    setWindowTitle(tr("Resolve complaint %1").arg(complaint.id));
    auto *summary = new QLabel(tr("Complaint %1 · sale %2 · %3 %4 · %5 · %6")
                                   .arg(QString::number(complaint.id), QString::number(complaint.transactionId),
                                        complaint.operatorCode, complaint.number, Money::formatIndian(complaint.amount),
                                        RaiseComplaintDialog::reasonText(complaint.reason)),
                               this);
    Look::set(summary, "strong");
    summary->setWordWrap(true);
    auto *outcomes = new QButtonGroup(this);
    outcomes->addButton(m_credited);
    outcomes->addButton(m_rejected);
    m_credited->setObjectName(QStringLiteral("complaintCredited"));
    m_rejected->setObjectName(QStringLiteral("complaintRejected"));
    m_words->setObjectName(QStringLiteral("complaintWords"));
    m_words->setMaxLength(Complaint::kMaxNote);
    m_words->setPlaceholderText(tr("What to tell the customer (required when rejected)"));
    m_reference->setObjectName(QStringLiteral("complaintOperatorReference"));
    m_reference->setMaxLength(Complaint::kMaxOperatorReference);

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("resolveComplaintError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);
    QLabel *outcomeError = FormErrors::makeLabel(this);
    QLabel *wordsError = FormErrors::makeLabel(this);
    QLabel *referenceError = FormErrors::makeLabel(this);
    m_errors->addField(QStringLiteral("outcome"), outcomeError);
    m_errors->addField(QStringLiteral("words"), wordsError);
    m_errors->addField(QStringLiteral("operator_reference"), referenceError);

    auto *buttons = new QDialogButtonBox(this);
    m_resolve = buttons->addButton(tr("Resol&ve"), QDialogButtonBox::AcceptRole);
    m_resolve->setObjectName(QStringLiteral("complaintResolve"));
    m_resolve->setDefault(true);
    Look::set(m_resolve, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);

    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(new QLabel(tr("Outcome"), this), m_credited);
    form->addRow(QString(), m_rejected);
    form->addRow(QString(), outcomeError);
    auto *wordsLabel = new QLabel(tr("&Words"), this);
    wordsLabel->setBuddy(m_words);
    form->addRow(wordsLabel, m_words);
    form->addRow(QString(), wordsError);
    auto *referenceLabel = new QLabel(tr("Operator &reference"), this);
    referenceLabel->setBuddy(m_reference);
    form->addRow(referenceLabel, m_reference);
    form->addRow(QString(), referenceError);

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(summary);
    layout->addLayout(form);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(560);
    setTabOrder(m_credited, m_rejected);
    setTabOrder(m_rejected, m_words);
    setTabOrder(m_words, m_reference);
    setTabOrder(m_reference, m_resolve);
    setTabOrder(m_resolve, m_cancel);
    m_credited->setFocus();

    connect(m_resolve, &QPushButton::clicked, this, &ResolveComplaintDialog::onResolveClicked);
    connect(m_cancel, &QPushButton::clicked, this, &ResolveComplaintDialog::reject);
}

ResolveComplaintDialog::~ResolveComplaintDialog() = default;

void ResolveComplaintDialog::reject()
{
    if (!m_busy)
        QDialog::reject();
}

void ResolveComplaintDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_resolve->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
}

void ResolveComplaintDialog::onResolveClicked()
{
    if (m_busy)
        return;
    m_errors->clear();
    if (!m_credited->isChecked() && !m_rejected->isChecked())
        m_errors->showAt(QStringLiteral("outcome"), tr("Choose the outcome: credited back, or rejected."), m_credited);
    if (m_rejected->isChecked() && m_words->text().trimmed().isEmpty())
        m_errors->showAt(QStringLiteral("words"), tr("Write why it is rejected: the customer is told these words."),
                         m_words);
    if (QWidget *problem = m_errors->firstProblem()) {
        problem->setFocus();
        return;
    }
    setBusy(true);
    const QString outcome = m_credited->isChecked() ? QStringLiteral("credited") : QStringLiteral("rejected");
    ComplaintsApi(m_context.api())
        .resolve(m_complaintId, outcome, m_words->text().trimmed(), m_reference->text().trimmed())
        .then(this, [this](const Answer<Complaint> &answer) { onAnswer(answer); });
}

void ResolveComplaintDialog::onAnswer(const Answer<Complaint> &answer)
{
    setBusy(false);
    if (!answer.ok()) {
        const ApiError &error = *answer.error;
        if (error.field() == QLatin1String("words") || error.field() == QLatin1String("operator_reference") ||
            error.field() == QLatin1String("outcome"))
            m_errors->show(error);
        else
            m_errors->showAt(QString(), error.httpStatus() == 0
                                            ? tr("The server did not answer: %1").arg(error.description())
                                            : tr("Not resolved: %1").arg(error.description()));
        return;
    }
    emit resolved(*answer.value);
    accept();
}

#include "raisecomplaintdialog.h"

#include "complaintsapi.h"
#include "money.h"
#include "terminalcontext.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

RaiseComplaintDialog::RaiseComplaintDialog(TerminalContext &context, const TransactionRecord &record, QWidget *parent)
    : QDialog(parent), m_context(context), m_transactionId(record.transactionId), m_reasons(new QListWidget(this)),
      m_note(new QLineEdit(this))
{
    setObjectName(QStringLiteral("raiseComplaintDialog"));
    setWindowTitle(tr("Raise complaint about sale %1").arg(record.transactionId));
    const QString number = record.type == TransactionType::Voucher ? record.customerEmail : record.number;
    auto *summary =
        new QLabel(tr("Sale %1 · %2 %3 · %4 · %5")
                       .arg(QString::number(record.transactionId), record.operatorName, number,
                            Money::formatIndian(record.billAmount), TransactionNames::status(record.status)),
                   this);
    summary->setObjectName(QStringLiteral("complaintSummary"));
    Look::set(summary, "strong");
    summary->setWordWrap(true);

    m_reasons->setObjectName(QStringLiteral("complaintReason"));
    for (const QString &reason : Complaint::reasons()) {
        auto *item = new QListWidgetItem(reasonText(reason), m_reasons);
        item->setData(Qt::UserRole, reason);
    }
    m_reasons->setCurrentRow(0); // the counter's most common complaint
    m_reasons->setFixedHeight(m_reasons->sizeHintForRow(0) * m_reasons->count() + 2 * m_reasons->frameWidth() + 4);
    m_note->setObjectName(QStringLiteral("complaintNote"));
    m_note->setMaxLength(Complaint::kMaxNote);
    m_note->setPlaceholderText(tr("What the customer says (required for Other)"));

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("complaintError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);
    QLabel *noteError = FormErrors::makeLabel(this);
    noteError->setObjectName(QStringLiteral("complaintError_note"));
    m_errors->addField(QStringLiteral("note"), noteError);
    QLabel *reasonError = FormErrors::makeLabel(this);
    m_errors->addField(QStringLiteral("reason"), reasonError);

    auto *buttons = new QDialogButtonBox(this);
    m_raise = buttons->addButton(tr("&Raise complaint"), QDialogButtonBox::AcceptRole);
    m_raise->setObjectName(QStringLiteral("complaintRaise"));
    m_raise->setDefault(true);
    Look::set(m_raise, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("complaintCancel"));

    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    auto *reasonLabel = new QLabel(tr("Rea&son"), this);
    reasonLabel->setBuddy(m_reasons);
    form->addRow(reasonLabel, m_reasons);
    form->addRow(QString(), reasonError);
    auto *noteLabel = new QLabel(tr("N&ote"), this);
    noteLabel->setBuddy(m_note);
    form->addRow(noteLabel, m_note);
    form->addRow(QString(), noteError);

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(summary);
    layout->addLayout(form);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(520);

    setTabOrder(m_reasons, m_note);
    setTabOrder(m_note, m_raise);
    setTabOrder(m_raise, m_cancel);
    m_reasons->setFocus();

    connect(m_raise, &QPushButton::clicked, this, &RaiseComplaintDialog::onRaiseClicked);
    connect(m_cancel, &QPushButton::clicked, this, &RaiseComplaintDialog::reject);
    // Enter in the list raises, as the default button would elsewhere.
    connect(m_reasons, &QListWidget::itemActivated, this, &RaiseComplaintDialog::onRaiseClicked);
}

RaiseComplaintDialog::~RaiseComplaintDialog() = default;

QString RaiseComplaintDialog::reasonText(const QString &reason)
{
    if (reason == QLatin1String("not_received"))
        return tr("Not received");
    if (reason == QLatin1String("wrong_number"))
        return tr("Wrong number");
    if (reason == QLatin1String("wrong_operator"))
        return tr("Wrong operator");
    if (reason == QLatin1String("wrong_amount"))
        return tr("Wrong amount");
    if (reason == QLatin1String("other"))
        return tr("Other");
    return reason;
}

void RaiseComplaintDialog::reject()
{
    if (!m_busy)
        QDialog::reject();
}

void RaiseComplaintDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_raise->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
}

void RaiseComplaintDialog::onRaiseClicked()
{
    if (m_busy)
        return;
    m_errors->clear();
    const QListWidgetItem *item = m_reasons->currentItem();
    const QString reason = item ? item->data(Qt::UserRole).toString() : QString();
    const QString note = m_note->text().trimmed();
    if (reason.isEmpty())
        m_errors->showAt(QStringLiteral("reason"), tr("Choose the reason."), m_reasons);
    if (reason == QLatin1String("other") && note.isEmpty())
        m_errors->showAt(QStringLiteral("note"), tr("Write what the customer says: the reason is Other."), m_note);
    if (QWidget *problem = m_errors->firstProblem()) {
        problem->setFocus();
        return;
    }
    setBusy(true);
    ComplaintsApi(m_context.api()).raise(m_transactionId, reason, note).then(this, [this](const Answer<Complaint> &a) {
        onAnswer(a);
    });
}

void RaiseComplaintDialog::onAnswer(const Answer<Complaint> &answer)
{
    setBusy(false);
    if (!answer.ok()) {
        const ApiError &error = *answer.error;
        if (error.field() == QLatin1String("note") || error.field() == QLatin1String("reason"))
            m_errors->show(error);
        else
            m_errors->showAt(QString(), error.httpStatus() == 0
                                            ? tr("The server did not answer: %1").arg(error.description())
                                            : tr("Not raised: %1").arg(error.description()));
        return;
    }
    emit raised(*answer.value);
    accept();
}

#include "complaintsection.h"

#include "apiclient.h"
#include "clock.h"
#include "complaintsapi.h"
#include "raisecomplaintdialog.h"
#include "terminalcontext.h"
#include "widgets/look.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

ComplaintSection::ComplaintSection(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_raise(new QPushButton(tr("Raise &complaint…"), this)),
      m_state(new QLabel(this))
{
    setObjectName(QStringLiteral("complaintSection"));
    m_raise->setObjectName(QStringLiteral("raiseComplaint"));
    m_state->setObjectName(QStringLiteral("complaintState"));
    m_state->setWordWrap(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_state, 1);
    layout->addWidget(m_raise);
    connect(m_raise, &QPushButton::clicked, this, &ComplaintSection::onRaiseClicked);
    clear();
}

void ComplaintSection::clear()
{
    if (m_call)
        m_call->abort();
    m_record.reset();
    show(std::nullopt);
}

void ComplaintSection::setSale(const TransactionRecord &record)
{
    const bool same = m_record && m_record->transactionId == record.transactionId;
    m_record = record;
    if (!same)
        show(std::nullopt);
    else
        show(m_complaint);
    load();
}

void ComplaintSection::load()
{
    if (!m_record)
        return;
    if (m_call)
        m_call->abort();
    const qint64 id = m_record->transactionId;
    m_call = ComplaintsApi(m_context.api()).ofSale(id).then(this, [this, id](const Answer<Collection<Complaint>> &a) {
        if (!m_record || m_record->transactionId != id || !a.ok())
            return; // unknown stays unknown: Raise complaint… stays as it was, the server says no if need be
        show(a.value->items.isEmpty() ? std::nullopt : std::optional<Complaint>(a.value->items.constFirst()));
    });
}

void ComplaintSection::show(const std::optional<Complaint> &complaint)
{
    m_complaint = complaint;
    const bool complainable =
        m_record && (m_record->status == TransactionStatus::Success || m_record->status == TransactionStatus::Pending);
    // A credited sale was reversed (FAILED): nothing left to complain about.
    const bool unresolved = complaint && (!complaint->isResolved() || complaint->state == QLatin1String("credited"));
    m_raise->setVisible(complainable && !unresolved);
    m_state->setText(complaint ? stateText(*complaint) : QString());
    m_state->setVisible(complaint.has_value());
    Look::set(m_state, complaint && complaint->pastDeadline && !complaint->isResolved() ? "warning" : "hint");
    setVisible(m_raise->isVisibleTo(this) || m_state->isVisibleTo(this));
}

QString ComplaintSection::stateText(const Complaint &c)
{
    const QString reason = RaiseComplaintDialog::reasonText(c.reason);
    const QString raised = IstTime::toIst(c.raisedAt).toString(QStringLiteral("dd MMM HH:mm"));
    if (c.state == QLatin1String("credited"))
        return tr("Complaint %1 (%2): credited back — the sale was reversed and refunded. %3")
            .arg(QString::number(c.id), reason, c.resolution)
            .trimmed();
    if (c.state == QLatin1String("rejected")) {
        const QString reference =
            c.operatorReference.isEmpty() ? QString() : tr(" Operator reference: %1.").arg(c.operatorReference);
        return tr("Complaint %1 (%2): rejected — %3.%4").arg(QString::number(c.id), reason, c.resolution, reference);
    }
    const QString where = c.state == QLatin1String("with_upstream") ? tr("with the distributor") : tr("open");
    // An API client raised it (a terminal without a signed-in person): no name to show.
    const QString by = c.raisedBy.startsWith(QLatin1String("key:")) ? tr("the shop's key") : c.raisedBy;
    QString text = tr("Complaint %1 (%2): %3, raised %4 by %5.").arg(QString::number(c.id), reason, where, raised, by);
    if (c.pastDeadline)
        text += QLatin1Char(' ') + tr("PAST DEADLINE");
    return text;
}

void ComplaintSection::onRaiseClicked()
{
    if (!m_record)
        return;
    auto *dialog = new RaiseComplaintDialog(m_context, *m_record, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RaiseComplaintDialog::raised, this, [this](const Complaint &complaint) {
        show(complaint);
        emit raised(complaint);
    });
    dialog->open();
}

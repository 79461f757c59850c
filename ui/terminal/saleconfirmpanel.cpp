#include "saleconfirmpanel.h"

#include "widgets/look.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

SaleConfirmPanel::SaleConfirmPanel(QWidget *parent) : QWidget(parent)
{
    Look::set(this, "card");
    setAttribute(Qt::WA_StyledBackground);
    m_title = new QLabel(tr("Check with the customer, then confirm"), this);
    m_title->setWordWrap(true);
    Look::set(m_title, "emphasis");

    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(24);
    grid->setVerticalSpacing(8);
    m_operator = addLine(grid, tr("Operator"), QStringLiteral("confirmOperator"));
    m_subjectLabel = new QLabel(this);
    m_subject = new QLabel(this);
    m_subject->setObjectName(QStringLiteral("confirmSubject"));
    m_subject->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const int subjectRow = grid->rowCount();
    grid->addWidget(m_subjectLabel, subjectRow, 0);
    grid->addWidget(m_subject, subjectRow, 1);
    m_note = new QLabel(this);
    Look::set(m_note, "hint");
    m_note->setWordWrap(true);
    grid->addWidget(m_note, grid->rowCount(), 0, 1, 2);
    // What the customer pays (the bill) is the large figure; what the shop's wallet pays and
    // earns is smaller below it.
    m_bill = addLine(grid, tr("Collect"), QStringLiteral("confirmBill"));
    Look::set(m_bill, "confirmAmount");
    Look::set(grid->itemAtPosition(grid->rowCount() - 1, 0)->widget(), "confirmAmount");
    m_paid = addLine(grid, tr("Wallet debit"), QStringLiteral("confirmPaid"));
    m_discount = addLine(grid, tr("Your commission"), QStringLiteral("confirmDiscount"));
    m_walletAfter = addLine(grid, tr("Wallet after"), QStringLiteral("walletAfter"));
    grid->setColumnStretch(1, 1);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("generalError"));
    Look::set(m_problem, "generalError");
    m_problem->setWordWrap(true);
    m_problem->hide();
    m_status = new QLabel(this);
    Look::set(m_status, "hint");
    m_status->hide();

    m_confirm = new QPushButton(tr("Confirm sale (Enter)"), this);
    Look::set(m_confirm, "action");
    m_confirm->setAutoDefault(true);
    m_back = new QPushButton(tr("Back (Esc)"), this);
    m_back->setAutoDefault(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addStretch();
    buttons->addWidget(m_confirm);
    setTabOrder(m_confirm, m_back);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 16, 20, 16);
    layout->addWidget(m_title);
    layout->addLayout(grid);
    layout->addWidget(m_problem);
    layout->addWidget(m_status);
    layout->addStretch();
    layout->addLayout(buttons);

    connect(m_confirm, &QPushButton::clicked, this, &SaleConfirmPanel::confirmed);
    connect(m_back, &QPushButton::clicked, this, &SaleConfirmPanel::backRequested);
}

QLabel *SaleConfirmPanel::addLine(QGridLayout *grid, const QString &label, const QString &objectName)
{
    const int row = grid->rowCount();
    auto *name = new QLabel(label, this);
    name->setWordWrap(true);
    auto *value = new QLabel(this);
    value->setObjectName(objectName);
    value->setWordWrap(true);
    grid->addWidget(name, row, 0);
    grid->addWidget(value, row, 1);
    return value;
}

void SaleConfirmPanel::showDraft(const SaleDraft &draft)
{
    m_draft = draft;
    m_operator->setText(draft.op.name);
    m_subjectLabel->setText(draft.subjectLabel);
    m_subject->setText(draft.subject.isEmpty() ? tr("—") : draft.subject);
    m_note->setText(draft.note);
    m_note->setVisible(!draft.note.isEmpty());
    m_bill->setText(Money::formatIndian(draft.bill));
    m_discount->setText(
        tr("%1 (%2)").arg(Money::formatIndian(draft.discount()), Money::formatRate(draft.op.discountBasisPoints)));
    m_paid->setText(Money::formatIndian(draft.paid()));
    m_walletAfter->setText(tr("checking…"));
    Look::set(m_walletAfter, "");
    m_problem->hide();
    m_confirm->setText(tr("Confirm sale (Enter)"));
    setSending(false);
    m_confirm->setFocus(Qt::OtherFocusReason);
}

void SaleConfirmPanel::setWallet(std::optional<Paise> balance)
{
    if (!balance) {
        m_walletAfter->setText(tr("unknown (the server did not say)"));
        return;
    }
    const Paise after = *balance - m_draft.paid();
    if (after < 0) {
        m_walletAfter->setText(tr("Not enough: the wallet has %1 and this sale needs %2. Top up in the back office.")
                                   .arg(Money::formatIndian(*balance), Money::formatIndian(m_draft.paid())));
        Look::set(m_walletAfter, "problem");
    } else {
        m_walletAfter->setText(Money::formatIndian(after));
        Look::set(m_walletAfter, "");
    }
}

void SaleConfirmPanel::setSending(bool sending)
{
    m_sending = sending;
    m_confirm->setEnabled(!sending);
    m_back->setEnabled(!sending);
    m_status->setText(tr("Sending the sale to the server…"));
    m_status->setVisible(sending);
    if (sending)
        m_problem->hide();
}

void SaleConfirmPanel::showRetry(const QString &message)
{
    setSending(false);
    m_problem->setText(message);
    m_problem->show();
    m_confirm->setText(tr("Retry (Enter)"));
    m_confirm->setFocus(Qt::OtherFocusReason);
}

void SaleConfirmPanel::keyPressEvent(QKeyEvent *event)
{
    if (m_sending) {
        event->accept();
        return;
    }
    switch (event->key()) {
    case Qt::Key_Escape:
        emit backRequested();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        emit confirmed();
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

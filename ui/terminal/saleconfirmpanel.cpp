#include "saleconfirmpanel.h"

#include "tenderpanel.h"
#include "widgets/digitslineedit.h"
#include "widgets/look.h"

#include <QApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace {

/// The one key that switches Cash ↔ UPI (F1-F6 choose screens, F8 is New sale).
constexpr Qt::Key kSwitchTenderKey = Qt::Key_F7;
/// The card's width with the customer's panel beside the details (a kiosk on one screen), in pixels.
constexpr int kWideWidth = 1000;

} // namespace

SaleConfirmPanel::SaleConfirmPanel(QWidget *parent) : QWidget(parent), m_tender(new TenderPanel(this))
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
    m_keys = new QLabel(tr("Enter: confirm · F7: Cash / UPI · Esc: back"), this);
    m_keys->setObjectName(QStringLiteral("confirmKeys"));
    m_keys->setWordWrap(true);
    Look::set(m_keys, "hint");

    m_confirm = new QPushButton(tr("Confirm sale (Enter)"), this);
    Look::set(m_confirm, "action");
    m_confirm->setAutoDefault(true);
    m_back = new QPushButton(tr("Back (Esc)"), this);
    m_back->setAutoDefault(true);
    // The keys between the two buttons: the UPI QR needs the height.
    m_keys->setAlignment(Qt::AlignCenter);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_keys, 1);
    buttons->addWidget(m_confirm);
    setTabOrder(m_confirm, m_back);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 16, 20, 16);
    layout->addWidget(m_title);
    // The sale and its money on the left; how the customer pays (and the UPI QR) on the right.
    m_details = new QVBoxLayout;
    m_details->addLayout(grid);
    m_details->addStretch(); // the rows keep their height beside the tall QR
    m_columns = new QHBoxLayout;
    m_columns->setSpacing(24);
    m_columns->addLayout(m_details, 1);
    m_columns->addWidget(m_tender, 1);
    layout->addLayout(m_columns);
    layout->addWidget(m_problem);
    layout->addWidget(m_status);
    layout->addStretch();
    layout->addLayout(buttons);
    setTabOrder(m_tender->cashReceivedEdit(), m_confirm);

    connect(m_confirm, &QPushButton::clicked, this, &SaleConfirmPanel::confirmed);
    connect(m_back, &QPushButton::clicked, this, &SaleConfirmPanel::backRequested);
    auto *switchTender = new QShortcut(QKeySequence(kSwitchTenderKey), this);
    switchTender->setContext(Qt::WidgetWithChildrenShortcut);
    connect(switchTender, &QShortcut::activated, this, [this] {
        if (!m_sending)
            m_tender->switchTender();
    });
    connect(m_tender, &TenderPanel::tenderChanged, this, [this](Tender tender) {
        updateConfirmText();
        // Digits typed for cash have no place with UPI: the focus goes back to the button.
        if (tender == Tender::Upi && m_tender->isAncestorOf(QApplication::focusWidget()))
            m_confirm->setFocus(Qt::OtherFocusReason);
        emit tenderChanged(tender);
    });
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

void SaleConfirmPanel::showDraft(const SaleDraft &draft, Tender tender, const QString &upiLink,
                                 const QString &payeeName)
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
    m_retry = false;
    m_tender->start(draft.bill, tender, upiLink, payeeName);
    updateConfirmText();
    setSending(false);
    m_confirm->setFocus(Qt::OtherFocusReason);
}

void SaleConfirmPanel::setCustomerPanel(QWidget *panel)
{
    // The customer's panel takes the right column (its QR replaces the tender's); how the customer pays goes under
    // the details. Wider than the usual card, so both fit beside each other within a kiosk's height.
    panel->setParent(this);
    m_columns->removeWidget(m_tender);
    m_details->insertWidget(1, m_tender);
    m_columns->addWidget(panel, 1);
    m_tender->setShowsQr(false);
    setMaximumWidth(kWideWidth);
}

Tender SaleConfirmPanel::tender() const
{
    return m_tender->tender();
}

std::optional<Paise> SaleConfirmPanel::cashReceived() const
{
    return m_tender->cashReceived();
}

void SaleConfirmPanel::updateConfirmText()
{
    if (m_retry)
        m_confirm->setText(tr("Retry (Enter)"));
    else if (m_tender->tender() == Tender::Upi)
        m_confirm->setText(tr("UPI received — confirm sale (Enter)"));
    else
        m_confirm->setText(tr("Confirm sale (Enter)"));
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
    m_tender->cashReceivedEdit()->setReadOnly(sending);
    m_status->setText(tr("Sending the sale to the server…"));
    m_status->setVisible(sending);
    if (sending)
        m_problem->hide();
}

void SaleConfirmPanel::showProblem(const QString &message)
{
    setSending(false);
    m_problem->setText(message);
    m_problem->show();
    m_confirm->setFocus(Qt::OtherFocusReason); // Enter confirms again once the problem is solved
}

void SaleConfirmPanel::showRetry(const QString &message)
{
    setSending(false);
    m_problem->setText(message);
    m_problem->show();
    m_retry = true;
    m_tender->setLocked(true); // the retry sends the very same sale
    updateConfirmText();
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
        // Digits typed on the confirmation are the cash the customer hands over.
        if (m_tender->tender() == Tender::Cash && !event->text().isEmpty() && event->text().at(0).isDigit() &&
            !m_tender->cashReceivedEdit()->hasFocus() && !(event->modifiers() & ~Qt::KeypadModifier)) {
            m_tender->cashReceivedEdit()->setFocus(Qt::OtherFocusReason);
            QApplication::sendEvent(m_tender->cashReceivedEdit(), event);
            return;
        }
        QWidget::keyPressEvent(event);
    }
}

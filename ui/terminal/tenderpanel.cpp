#include "tenderpanel.h"

#include "widgets/digitslineedit.h"
#include "widgets/look.h"
#include "widgets/upiqrwidget.h"

#include <QButtonGroup>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {

/// Whole rupees the "Cash received" field takes: up to ₹9,99,999.
constexpr int kReceivedDigits = 6;

} // namespace

TenderPanel::TenderPanel(QWidget *parent)
    : QWidget(parent), m_cash(new QPushButton(tr("Cash"), this)), m_upi(new QPushButton(tr("UPI"), this)),
      m_pages(new QStackedWidget(this)), m_received(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, kReceivedDigits)),
      m_change(new QLabel), m_qr(new UpiQrWidget), m_noQr(new QLabel), m_upiNote(new QLabel)
{
    setObjectName(QStringLiteral("tenderPanel"));
    auto *heading = new QLabel(tr("Paid by"), this);
    Look::set(heading, "emphasis");
    // The choice is made with F7 (the focus stays on Confirm); the buttons are for a touch screen.
    m_cash->setObjectName(QStringLiteral("tenderCash"));
    m_upi->setObjectName(QStringLiteral("tenderUpi"));
    auto *choice = new QButtonGroup(this);
    for (QPushButton *button : {m_cash, m_upi}) {
        button->setCheckable(true);
        button->setFocusPolicy(Qt::NoFocus);
        Look::set(button, "tenderChoice");
        choice->addButton(button);
    }
    m_cash->setChecked(true);
    auto *choiceRow = new QHBoxLayout;
    choiceRow->setSpacing(8);
    choiceRow->addWidget(heading);
    choiceRow->addWidget(m_cash, 1);
    choiceRow->addWidget(m_upi, 1);

    // Cash: what the customer handed over and the change.
    auto *cashPage = new QWidget;
    m_received->setParent(cashPage);
    m_received->setObjectName(QStringLiteral("cashReceived"));
    m_received->setPlaceholderText(tr("optional: type it"));
    auto *receivedLabel = new QLabel(tr("Cash received ₹"), cashPage);
    receivedLabel->setBuddy(m_received);
    m_change->setParent(cashPage);
    m_change->setObjectName(QStringLiteral("cashChange"));
    m_change->setWordWrap(true);
    auto *cashLayout = new QGridLayout(cashPage);
    cashLayout->setContentsMargins(0, 0, 0, 0);
    cashLayout->addWidget(receivedLabel, 0, 0);
    cashLayout->addWidget(m_received, 0, 1);
    cashLayout->addWidget(m_change, 1, 0, 1, 2);
    cashLayout->setColumnStretch(1, 1);
    cashLayout->setRowStretch(2, 1);

    // UPI: the QR for the exact amount and what the clerk checks before confirming.
    auto *upiPage = new QWidget;
    m_qr->setParent(upiPage);
    m_qr->setObjectName(QStringLiteral("upiQr"));
    m_noQr->setParent(upiPage);
    m_noQr->setObjectName(QStringLiteral("upiNoQr"));
    m_noQr->setWordWrap(true);
    Look::set(m_noQr, "warning");
    m_upiNote->setParent(upiPage);
    m_upiNote->setObjectName(QStringLiteral("upiNote"));
    m_upiNote->setWordWrap(true);
    Look::set(m_upiNote, "upiNote");
    m_upiNote->setText(tr("This terminal cannot see the payment. Check the shop's UPI app or soundbox for the "
                          "amount, then press UPI received."));
    auto *upiLayout = new QVBoxLayout(upiPage);
    upiLayout->setContentsMargins(0, 0, 0, 0);
    upiLayout->addWidget(m_qr, 0, Qt::AlignHCenter);
    upiLayout->addWidget(m_noQr);
    upiLayout->addWidget(m_upiNote);
    upiLayout->addStretch(1);

    m_pages->addWidget(cashPage);
    m_pages->addWidget(upiPage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choiceRow);
    layout->addWidget(m_pages, 1);

    connect(m_cash, &QPushButton::clicked, this, [this] { setTender(Tender::Cash); });
    connect(m_upi, &QPushButton::clicked, this, [this] { setTender(Tender::Upi); });
    connect(m_received, &QLineEdit::textChanged, this, &TenderPanel::updateChange);
    showTender();
}

void TenderPanel::start(Paise bill, Tender tender, const QString &upiLink, const QString &payeeName)
{
    m_bill = bill;
    m_upiLink = upiLink;
    m_locked = false;
    m_received->clear();
    m_noQr->setText(tr("Set the shop's UPI ID in Settings to show a QR. The customer pays %1 to the shop's UPI ID.")
                        .arg(Money::formatIndian(bill)));
    m_qr->setPayment(upiLink, bill, payeeName);
    m_tender = tender;
    showTender();
    updateChange();
}

void TenderPanel::setTender(Tender tender)
{
    if (m_locked) {
        showTender(); // a click on the other button does not stick
        return;
    }
    const bool changed = tender != m_tender;
    m_tender = tender;
    showTender();
    if (changed)
        emit tenderChanged(tender);
}

void TenderPanel::setShowsQr(bool shows)
{
    m_showsQr = shows;
    showTender();
}

void TenderPanel::switchTender()
{
    setTender(m_tender == Tender::Cash ? Tender::Upi : Tender::Cash);
}

void TenderPanel::setLocked(bool locked)
{
    m_locked = locked;
    m_cash->setEnabled(!locked || m_tender == Tender::Cash);
    m_upi->setEnabled(!locked || m_tender == Tender::Upi);
}

std::optional<Paise> TenderPanel::cashReceived() const
{
    if (m_tender != Tender::Cash || m_received->text().isEmpty())
        return std::nullopt;
    return m_received->text().toLongLong() * Money::kPaisePerRupee;
}

QString TenderPanel::changeText(Paise received, Paise bill)
{
    if (received > bill)
        return tr("Change %1").arg(Money::formatIndian(received - bill));
    if (received == bill)
        return tr("No change to give");
    return tr("%1 short").arg(Money::formatIndian(bill - received));
}

void TenderPanel::showTender()
{
    const bool upi = m_tender == Tender::Upi;
    m_cash->setChecked(!upi);
    m_upi->setChecked(upi);
    m_pages->setCurrentIndex(upi ? 1 : 0);
    m_qr->setVisible(upi && m_showsQr && !m_upiLink.isEmpty());
    m_noQr->setVisible(upi && m_upiLink.isEmpty());
    setLocked(m_locked);
}

void TenderPanel::updateChange()
{
    const std::optional<Paise> received = cashReceived();
    if (!received) {
        m_change->setText(tr("Type what the customer hands over to see the change."));
        Look::set(m_change, "hint");
        return;
    }
    m_change->setText(changeText(*received, m_bill));
    Look::set(m_change, *received >= m_bill ? "changeDue" : "problem");
}

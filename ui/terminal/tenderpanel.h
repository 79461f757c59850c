#pragma once

#include "money.h"
#include "tender.h"

#include <QWidget>

#include <optional>

class DigitsLineEdit;
class QLabel;
class QPushButton;
class QStackedWidget;
class UpiQrWidget;

/// How the customer pays, on a sale's confirmation (issue 28): Cash or UPI, the last used chosen already and F7
/// switching (the two buttons are for touch). Cash: an optional "Cash received" that shows the change to give
/// ("Change ₹201.00") or what is missing ("₹50.00 short"); typing digits anywhere on the confirmation goes there.
/// UPI: the shop's UPI QR for the exact amount (UpiLink) — or, without the shop's UPI ID, how to set it — and the
/// plain sentence that the terminal cannot see the payment: the clerk checks the shop's UPI app or soundbox first.
class TenderPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TenderPanel)

public:
    explicit TenderPanel(QWidget *parent = nullptr);

    /// A new confirmation: `bill` in paise to collect, `tender` chosen, `upiLink` the UPI link of the QR (empty:
    /// the shop has no UPI ID, no QR) paying `payeeName`. Clears the cash received and unlocks the choice.
    void start(Paise bill, Tender tender, const QString &upiLink, const QString &payeeName);
    Tender tender() const { return m_tender; }
    void setTender(Tender tender);
    /// Cash ↔ UPI (F7), unless locked.
    void switchTender();
    /// Whether the UPI page shows the QR (off when the customer's own panel shows it, a kiosk on one screen).
    void setShowsQr(bool shows);
    /// A sale sent once without a definite answer keeps its tender for the retry.
    void setLocked(bool locked);
    /// The cash the customer handed over, in paise; nullopt when nothing is typed or the tender is UPI.
    std::optional<Paise> cashReceived() const;

    DigitsLineEdit *cashReceivedEdit() const { return m_received; }
    /// "Change ₹201.00" / "₹50.00 short" / the hint while nothing is typed.
    QLabel *changeLabel() const { return m_change; }
    QPushButton *cashButton() const { return m_cash; }
    QPushButton *upiButton() const { return m_upi; }
    /// The QR with its caption "₹299.00 to …" (shown with UPI when the shop has a UPI ID).
    UpiQrWidget *qrWidget() const { return m_qr; }
    /// Without the shop's UPI ID: how to set it, in place of the QR.
    QLabel *noQrLabel() const { return m_noQr; }
    /// "This terminal cannot see the payment…".
    QLabel *upiNote() const { return m_upiNote; }

    /// The change line for `received` against `bill` (paise): "Change ₹201.00", "No change to give",
    /// "₹50.00 short".
    static QString changeText(Paise received, Paise bill);

signals:
    void tenderChanged(Tender tender);

private:
    void showTender();
    void updateChange();

    Paise m_bill = 0;
    Tender m_tender = Tender::Cash;
    bool m_locked = false;
    bool m_showsQr = true;
    QString m_upiLink;
    QPushButton *m_cash;
    QPushButton *m_upi;
    QStackedWidget *m_pages;
    DigitsLineEdit *m_received;
    QLabel *m_change;
    UpiQrWidget *m_qr;
    QLabel *m_noQr;
    QLabel *m_upiNote;
};

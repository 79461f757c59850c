#pragma once

#include "saledraft.h"
#include "tender.h"

#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;
class QPushButton;
class QHBoxLayout;
class QVBoxLayout;
class TenderPanel;

/// The confirmation step of a sale: operator, number, circle and plan, then the money in the
/// words of the counter: "Collect ₹299.00" (the bill: what the customer pays) largest, and
/// smaller the wallet debit (bill − discount), the shop's commission (the discount) and the
/// wallet after the sale. Beside them how the customer pays (TenderPanel, issue 28): Cash or UPI, F7 switches,
/// digits typed go to "Cash received" (the change shows); with UPI the QR for the amount, and the confirm button
/// says "UPI received" — the clerk presses it after checking the shop's UPI app. Enter confirms, Esc goes back to
/// the form; a hint line says so. While the sale is being sent both are disabled; after a network error the
/// confirm button becomes Retry (the tender then stays as sent).
class SaleConfirmPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleConfirmPanel)

public:
    explicit SaleConfirmPanel(QWidget *parent = nullptr);

    /// Shows `draft`; the wallet lines say "checking…" until setWallet(). `tender` is chosen (the last used);
    /// `upiLink` is the UPI QR's link for the bill (empty: the shop has no UPI ID), paying `payeeName`.
    void showDraft(const SaleDraft &draft, Tender tender = Tender::Cash, const QString &upiLink = {},
                   const QString &payeeName = {});
    /// How the customer pays, as chosen now.
    Tender tender() const;
    /// The cash the customer handed over (paise), if typed.
    std::optional<Paise> cashReceived() const;
    TenderPanel *tenderPanel() const { return m_tender; }
    /// Kiosk on one screen (issue 28): `panel` (the customer's view: what to pay, the UPI QR) goes beside the
    /// details, in place of the tender's own QR (the tender goes under the details). Owned by this panel.
    void setCustomerPanel(QWidget *panel);
    /// The line of keys under the details ("Enter …  F7 …  Esc …").
    QLabel *keysHint() const { return m_keys; }
    /// The wallet balance in paise (nullopt: could not be read).
    void setWallet(std::optional<Paise> balance);
    /// Sending: buttons disabled and a "Sending…" line.
    void setSending(bool sending);
    /// A problem that sent nothing (no shift open): shows `message`; Enter confirms again.
    void showProblem(const QString &message);
    /// A problem after which the same sale can be sent again (network error): shows `message`
    /// and turns the confirm button into Retry.
    void showRetry(const QString &message);

    QPushButton *confirmButton() const { return m_confirm; }
    QPushButton *backButton() const { return m_back; }
    QLabel *walletAfterLabel() const { return m_walletAfter; }
    QLabel *problemLabel() const { return m_problem; }

signals:
    void confirmed();
    void backRequested();
    /// The clerk switched between Cash and UPI.
    void tenderChanged(Tender tender);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QLabel *addLine(QGridLayout *grid, const QString &label, const QString &objectName);
    /// The confirm button's words for the tender (and Retry after a network error).
    void updateConfirmText();

    SaleDraft m_draft;
    bool m_sending = false;
    bool m_retry = false;
    QLabel *m_title;
    QLabel *m_operator;
    QLabel *m_subjectLabel;
    QLabel *m_subject;
    QLabel *m_note;
    QLabel *m_bill;
    QLabel *m_discount;
    QLabel *m_paid;
    QLabel *m_walletAfter;
    QLabel *m_problem;
    QLabel *m_status;
    QLabel *m_keys;
    TenderPanel *m_tender;
    QVBoxLayout *m_details;
    QHBoxLayout *m_columns;
    QPushButton *m_confirm;
    QPushButton *m_back;
};

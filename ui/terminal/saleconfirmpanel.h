#pragma once

#include "saledraft.h"

#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;
class QPushButton;

/// The confirmation step of a sale: operator, number, circle and plan, then the money in the
/// words of the counter: "Collect ₹299.00" (the bill: what the customer pays) largest, and
/// smaller the wallet debit (bill − discount), the shop's commission (the discount) and the
/// wallet after the sale. Enter confirms, Esc goes back to the form. While the sale is being
/// sent both are disabled; after a network error the confirm button becomes Retry.
class SaleConfirmPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleConfirmPanel)

public:
    explicit SaleConfirmPanel(QWidget *parent = nullptr);

    /// Shows `draft`; the wallet lines say "checking…" until setWallet().
    void showDraft(const SaleDraft &draft);
    /// The wallet balance in paise (nullopt: could not be read).
    void setWallet(std::optional<Paise> balance);
    /// Sending: buttons disabled and a "Sending…" line.
    void setSending(bool sending);
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

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QLabel *addLine(QGridLayout *grid, const QString &label, const QString &objectName);

    SaleDraft m_draft;
    bool m_sending = false;
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
    QPushButton *m_confirm;
    QPushButton *m_back;
};

#pragma once

#include "receipts/receiptdata.h"
#include "receipts/receiptrenderer.h"
#include "saledraft.h"
#include "terminalcontext.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPrinter;
class ComplaintSection;
class QPushButton;
class QTimer;
class StatusBadge;
class UpstreamNotice;

namespace Ui {
class SaleResultPanel;
}

/// The result of a sale: the large status badge, what to do about the money ("Collect ₹299.00
/// from the customer" and the change from the cash received; "Paid ₹299.00 by UPI"; a FAILED sale: "Not
/// recharged — nothing to pay", or "Refund ₹299.00 by UPI" when the customer had paid by UPI; PENDING: what to
/// tell the customer), the transaction's details (bill, wallet debit, the shop's commission), a voucher's
/// redeem code (large, grouped, with Copy), a preview of the receipt exactly as it prints, and the
/// receipt buttons: paper width, Shop copy (adds commission and wallet debit), Print receipt
/// (Ctrl+P), Save PDF and Reprint. The first customer's receipt issued for a sale is the original;
/// every later one is marked DUPLICATE. Print receipt is the default button; New sale takes Ctrl+N
/// (or F8). For a moment after a sale appears Enter does nothing (a visible "Enter paused" line
/// says so), so the extra Enter presses of a fast confirm cannot print, leave or start another sale.
class SaleResultPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleResultPanel)

public:
    explicit SaleResultPanel(TerminalContext &context, QWidget *parent = nullptr);
    ~SaleResultPanel() override;

    /// Shows the spec transaction record (a new sale, or the same sale after it settled). A sale shown PENDING here
    /// that ends FAILED says "Give ₹… back to the customer" (issue 27), as does a record marked failed_after_pending.
    void showRecord(const TransactionRecord &record);
    /// Shows a new sale's record with what the sale screen knew that the record does not carry
    /// (the circle and the plan sold), for the receipt.
    void showSale(const TransactionRecord &record, const SaleDraft &draft);
    /// While a PENDING sale is followed: "checking again in N s" (`nextCheckMs` <= 0 hides it).
    void setNextCheck(int nextCheckMs);
    /// While a PENDING sale is followed: says on the panel that the server cannot be reached and
    /// that the sale is safe (false hides it).
    void setServerOffline(bool offline);
    QLabel *serverOfflineLabel() const;
    /// The sale shown, if any.
    const std::optional<TransactionRecord> &record() const { return m_record; }

    /// The receipt of the shown sale for this shop: the customer's copy, or the shop's copy when
    /// Shop copy is ticked; stamped as a test in test mode.
    ReceiptData receiptData() const;
    /// The paper width chosen (remembered in the terminal settings).
    ReceiptWidth receiptWidth() const;
    void setReceiptWidth(ReceiptWidth width);
    /// Writes the receipt as PDF to `path` (DUPLICATE if a receipt was issued before or
    /// `duplicate`); false with a message on the panel if the file cannot be written.
    bool savePdf(const QString &path, bool duplicate = false);
    /// True once a customer's receipt (printed or PDF) was issued for this sale.
    bool receiptIssued() const { return m_receiptIssued; }

    StatusBadge *badge() const;
    QLabel *redeemCodeLabel() const;
    /// The sale's complaint and "Raise complaint…" (issue 29).
    ComplaintSection *complaints() const { return m_complaints; }
    QPushButton *copyButton() const;
    QPushButton *newSaleButton() const;
    QPushButton *printButton() const;
    /// Focuses the button the result starts on (issue 27): New sale while the sale is PENDING (its receipt is
    /// printed once it ends), Print receipt otherwise.
    void focusDefaultButton();
    /// The "Enter paused" line; visible while Enter is ignored.
    QLabel *enterPauseLabel() const;
    /// How long Enter is ignored after a new sale appears, in milliseconds.
    static constexpr int kEnterPauseMs = 1000;
    QLabel *messageLabel() const;
    /// The large money line ("Collect ₹299.00 from the customer").
    QLabel *moneyLabel() const;
    /// What the clerk should do now (PENDING, FAILED); hidden after a plain success.
    QLabel *adviceLabel() const;
    /// The receipt preview (a pixmap of what Print would print).
    QLabel *receiptPreview() const;
    QCheckBox *shopCopyBox() const;
    /// A live sale's upstream: "Waiting for the operator — m:ss", or the upstream's refusal in words.
    UpstreamNotice *upstreamNotice() const { return m_upstream; }
    /// For tests: the value label of a detail ("transaction_id", "number", "paid", …).
    QLabel *detail(const QString &field) const;

signals:
    void newSaleRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Starts showing `record`; a different sale forgets the previous one's receipt state.
    void takeRecord(const TransactionRecord &record);
    void refresh();
    void showMoney(const ReceiptData &data);
    void updatePreview();
    /// Whether the receipt about to be issued carries DUPLICATE (`duplicate`: asked for).
    bool marksDuplicate(bool duplicate) const;
    /// A receipt was printed or saved: a customer's receipt makes the next one a duplicate.
    void noteIssued();
    void onCopyClicked();
    void onPrintClicked(bool duplicate);
    void onSavePdfClicked();
    void showMessage(const QString &message);

    TerminalContext &m_context;
    std::optional<TransactionRecord> m_record;
    ComplaintSection *m_complaints = nullptr;
    QString m_circle;                    ///< from the sale screen; the record has no circle
    std::optional<SoldPlan> m_plan;      ///< from the sale screen; the record has no plan
    std::optional<Paise> m_cashReceived; ///< cash the customer handed over (typed at the confirmation), if any
    QString m_draftTender; ///< the tender chosen, when the record carries none (an older server); else empty
    QString m_upiLink;     ///< the UPI QR's link of a UPI sale, printed when "receipts/print_upi_qr" is on
    bool m_receiptIssued = false;
    /// This panel showed the sale PENDING ("Collect …"): a FAILED end gives the money back (issue 27).
    bool m_shownPending = false;
    bool m_wasPending = false; ///< the sale shown was PENDING at the last refresh()
    std::unique_ptr<QPrinter> m_printer;
    std::unique_ptr<Ui::SaleResultPanel> m_ui; ///< the form of saleresultpanel.ui
    UpstreamNotice *m_upstream;
    QHash<QString, QLabel *> m_details;     ///< value labels by field ("transaction_id", …)
    QHash<QString, QLabel *> m_detailNames; ///< their row names
    QTimer *m_enterPauseTimer;
};

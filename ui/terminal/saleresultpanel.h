#pragma once

#include "receipts/receiptdata.h"
#include "receipts/receiptrenderer.h"
#include "terminalcontext.h"

#include <QJsonObject>
#include <QWidget>

#include <memory>

class QComboBox;
class QGridLayout;
class QLabel;
class QPrinter;
class QPushButton;
class StatusBadge;
class UpstreamNotice;

/// The result of a sale: the large status badge, the transaction's details, a voucher's redeem
/// code (large, grouped, with Copy) and the receipt buttons: Print receipt (Ctrl+P), Save PDF and
/// Reprint. The first receipt issued for a sale is the original; every later one is marked
/// DUPLICATE. New sale (Ctrl+N) is the default button.
class SaleResultPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleResultPanel)

public:
    explicit SaleResultPanel(TerminalContext &context, QWidget *parent = nullptr);
    ~SaleResultPanel() override;

    /// Shows the spec transaction record (a new sale, or the same sale after it settled).
    void showRecord(const QJsonObject &record);
    /// While a PENDING sale is followed: "checking again in N s" (`nextCheckMs` <= 0 hides it).
    void setNextCheck(int nextCheckMs);
    const QJsonObject &record() const { return m_record; }

    /// The receipt of the shown sale for this shop.
    ReceiptData receiptData() const;
    /// The paper width chosen (remembered in the terminal settings).
    ReceiptWidth receiptWidth() const;
    void setReceiptWidth(ReceiptWidth width);
    /// Writes the receipt as PDF to `path` (DUPLICATE if a receipt was issued before or
    /// `duplicate`); false with a message on the panel if the file cannot be written.
    bool savePdf(const QString &path, bool duplicate = false);
    /// True once a receipt (printed or PDF) was issued for this sale.
    bool receiptIssued() const { return m_receiptIssued; }

    StatusBadge *badge() const { return m_badge; }
    QLabel *redeemCodeLabel() const { return m_redeemCode; }
    QPushButton *copyButton() const { return m_copy; }
    QPushButton *newSaleButton() const { return m_newSale; }
    QLabel *messageLabel() const { return m_message; }
    /// A live sale's upstream: "Waiting for the operator — m:ss", or the upstream's refusal in words.
    UpstreamNotice *upstreamNotice() const { return m_upstream; }
    /// For tests: the value label of a detail ("transaction_id", "number", "paid", …).
    QLabel *detail(const QString &field) const;

signals:
    void newSaleRequested();

private:
    void addDetail(QGridLayout *grid, const QString &field, const QString &label);
    void onCopyClicked();
    void onPrintClicked(bool duplicate);
    void onSavePdfClicked();
    void showMessage(const QString &message);

    TerminalContext &m_context;
    QJsonObject m_record;
    bool m_receiptIssued = false;
    std::unique_ptr<QPrinter> m_printer;
    StatusBadge *m_badge;
    QLabel *m_nextCheck;
    UpstreamNotice *m_upstream;
    QHash<QString, QLabel *> m_details;
    QHash<QString, QLabel *> m_detailNames;
    QWidget *m_codeBox;
    QLabel *m_redeemCode;
    QPushButton *m_copy;
    QLabel *m_message;
    QComboBox *m_width;
    QPushButton *m_print;
    QPushButton *m_savePdf;
    QPushButton *m_reprint;
    QPushButton *m_newSale;
};

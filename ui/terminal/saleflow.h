#pragma once

#include "answer.h"
#include "customerdisplay/customerdisplay.h"
#include "entities/page.h"
#include "entities/transactionrecord.h"
#include "saledraft.h"
#include "terminalcontext.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class ApiCall;
class QLabel;
class QStackedWidget;
struct ApiResult;
class SaleConfirmPanel;
class SaleForm;
class RepeatSalePanel;
class SaleResultPanel;
class StatusPoller;

/// The flow every sale screen shares: form → (for a mobile or DTH number: the server's sales of
/// the last 10 minutes are checked, and the same number and amount asks "sell again?" first,
/// RepeatSalePanel) → confirmation (bill, discount, paid, wallet after,
/// from GET /api/v1/wallet) → POST to the spec endpoint → result, following a PENDING sale until
/// it settles → receipt. Each sale gets one reference_id (typed, or generated here) that is
/// reused when the same sale is sent again after a network error, so a retry cannot charge
/// twice (api-conventions.md, "Idempotency"). API errors go next to the form field they name;
/// 402 says what the wallet holds. The screen fills form() with its inputs and answers
/// SaleForm::submitted with confirm(draft). Ctrl+N / F8 start a new sale. While a PENDING sale is
/// followed and the server cannot be reached, the result panel says so; when it answers again the
/// sale is checked at once. Every recorded or settled sale is announced with
/// TerminalContext::salesChanged, so the back office and the status bar re-read their figures.
///
/// Issue 28: the confirmation asks how the customer pays (Cash or UPI, the last used kept; the UPI QR from the
/// shop's UPI ID with the sale's reference in its note) and the tender goes on the initiate; with the shop's shifts
/// on and no shift open the sale waits while TerminalContext::shiftNeeded asks for one (also on the server's 409
/// no_open_shift). A cash sale taken opens the drawer (cashDrawerNeeded), and each stage tells the customer display
/// what to show (customerViewChanged).
class SaleFlow final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleFlow)

public:
    enum class Stage
    {
        Form,
        Checking,      ///< on the form, asking the server for recent sales of the number
        RepeatWarning, ///< "Sold ₹299 to … at 14:02 — sell again?"
        Confirm,
        Sending,
        Result
    };

    SaleFlow(TerminalContext &context, const QString &title, QWidget *parent = nullptr);

    SaleForm *form() const { return m_form; }
    SaleConfirmPanel *confirmPanel() const { return m_confirm; }
    SaleResultPanel *resultPanel() const { return m_result; }
    RepeatSalePanel *repeatPanel() const { return m_repeat; }
    StatusPoller *poller() const { return m_poller; }
    Stage stage() const { return m_stage; }
    /// The reference_id of the sale being confirmed or last sent (empty before the first).
    const QString &referenceId() const { return m_referenceId; }

    /// Shows the confirmation of `draft` and reads the wallet for the "after" line. For a mobile
    /// or DTH number the server's sales of the last SaleHistory::kRepeatWindowMs come first: the
    /// same number and amount (not FAILED) shows RepeatSalePanel instead; if the server cannot
    /// answer, the confirmation shows (the sale itself will meet the same server).
    void confirm(const SaleDraft &draft);
    /// Focuses where the clerk continues in the current stage: the form's first input, Confirm,
    /// "No, go back" or Print receipt.
    void focusCurrentStage();
    /// Back to the form for a new sale: stops following the last one, emits newSaleRequested()
    /// so the screen clears its inputs, and focuses the first input. Ignored while sending.
    void newSale();

signals:
    /// The screen should clear its inputs (the flow then focuses the first one).
    void newSaleRequested();
    /// The server answered with a transaction record (the sale exists, whatever its status).
    void saleRecorded(const TransactionRecord &record);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void setStage(Stage stage);
    void showConfirmation();
    void onRecentSales(const Answer<Page<TransactionRecord>> &answer);
    void send();
    void onSent(const Answer<TransactionRecord> &answer);
    void onSettled(const TransactionRecord &record);
    /// Whether the result panel shows sale `transactionId`.
    bool showsSale(qint64 transactionId) const;
    void onReachabilityChanged(bool reachable);
    void explainInsufficientBalance();
    /// The UPI link of the sale being confirmed (the shop's UPI ID, the bill, the number and reference in the
    /// note); empty when the shop has no UPI ID.
    QString upiLink() const;
    /// The payee name of the UPI QR: the shop's setting, else the shop's name.
    QString upiPayee() const;
    /// Tells the customer display what this flow shows now (TerminalContext::customerViewChanged): idle on the
    /// form, the sale to pay on the confirmation, the outcome on the result.
    void showCustomer();
    /// The customer's view of the stage shown.
    CustomerDisplayState customerState() const;

    TerminalContext &m_context;
    QStackedWidget *m_stack;
    SaleForm *m_form;
    SaleConfirmPanel *m_confirm;
    SaleResultPanel *m_result;
    RepeatSalePanel *m_repeat;
    StatusPoller *m_poller;
    Stage m_stage = Stage::Form;
    SaleDraft m_draft;
    QString m_referenceId;
    QJsonObject m_sentBody; ///< body of the last attempt without a final answer (for retries)
    QPointer<ApiCall> m_walletCall;
};

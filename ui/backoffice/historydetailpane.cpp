#include "historydetailpane.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "clock.h"
#include "complaints/complaintsection.h"
#include "money.h"
#include "receipts/receiptrenderer.h"
#include "receipts/shiftwording.h"
#include "resolvedialog.h"
#include "terminalcontext.h"
#include "transactionsapi.h"
#include "upstreamcallsview.h"
#include "upstreamsaleinfo.h"
#include "webhooksapi.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"
#include "widgets/readonlytable.h"
#include "widgets/statusbadge.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QPrintPreviewDialog>
#include <QPrinter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

QTableWidget *makeTable(QWidget *parent, const char *name, const QStringList &headers)
{
    QTableWidget *table = makeReadOnlyTable(parent, name, headers);
    table->setMinimumHeight(120);
    return table;
}

void setRow(QTableWidget *table, int row, const QStringList &cells)
{
    for (int column = 0; column < cells.size(); ++column)
        table->setItem(row, column, new QTableWidgetItem(cells.at(column)));
}

} // namespace

HistoryDetailPane::HistoryDetailPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_title(new QLabel(this)), m_badge(new StatusBadge(this)),
      m_fields(new QFormLayout),
      m_ledger(makeTable(this, "ledgerTable", {tr("Kind"), tr("Amount"), tr("When"), tr("Note")})),
      m_deliveries(makeTable(this, "deliveriesTable", {tr("Try"), tr("When"), tr("HTTP"), tr("Result"), tr("Error")})),
      m_deliveriesNote(new QLabel(this)), m_message(new QLabel(this)), m_attention(new QLabel(this)),
      m_words(new QLabel(this)), m_resolution(new QLabel(this)), m_reversal(new QLabel(this)),
      m_mismatch(new QLabel(this)), m_tried(new QLabel(this)), m_recheck(new QPushButton(tr("&Recheck status"), this)),
      m_reprint(new QPushButton(tr("Re&print receipt"), this)),
      m_redeliver(new QPushButton(tr("Re&deliver webhook"), this)), m_resolve(new QPushButton(tr("Resol&ve…"), this)),
      m_upstream(new UpstreamCallsView(context, this)), m_actions(new QGridLayout)
{
    setObjectName(QStringLiteral("historyDetail"));
    m_title->setObjectName(QStringLiteral("detailTitle"));
    Look::set(m_title, "paneTitle");
    m_title->setText(tr("Select a sale to see its details"));
    m_title->setWordWrap(true);
    m_badge->hide();
    m_badge->setWordWrap(true); // "⏳ PENDING — waiting for the operator" is wider than the pane at 1366 px
    m_fields->setRowWrapPolicy(QFormLayout::WrapLongRows);
    Look::set(m_deliveriesNote, "hint");
    m_deliveriesNote->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("detailMessage"));
    m_message->setWordWrap(true);
    m_message->hide();
    m_recheck->setObjectName(QStringLiteral("recheckButton"));
    m_reprint->setObjectName(QStringLiteral("reprintButton"));
    m_redeliver->setObjectName(QStringLiteral("redeliverButton"));
    m_resolve->setObjectName(QStringLiteral("resolveButton"));
    m_resolve->setToolTip(tr("End this PENDING sale by hand after checking it at the upstream (an admin's PIN "
                             "confirms)"));
    m_resolve->hide();
    m_attention->setObjectName(QStringLiteral("detailAttention"));
    Look::set(m_attention, "attentionNote");
    m_attention->setWordWrap(true);
    m_attention->hide();
    m_words->setObjectName(QStringLiteral("detailUpstreamWords"));
    Look::set(m_words, "upstreamRefused");
    m_words->setWordWrap(true);
    m_words->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_words->hide();
    m_resolution->setObjectName(QStringLiteral("detailResolution"));
    Look::set(m_resolution, "resolutionNote");
    m_resolution->setWordWrap(true);
    m_resolution->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_resolution->hide();
    m_reversal->setObjectName(QStringLiteral("detailReversal"));
    Look::set(m_reversal, "reversalNote");
    m_mismatch->setObjectName(QStringLiteral("detailMismatch"));
    Look::set(m_mismatch, "attentionNote"); // a person must look, as for a sale needing attention
    m_tried->setObjectName(QStringLiteral("detailUpstreamTried"));
    Look::set(m_tried, "triedNote");
    for (QLabel *label : {m_reversal, m_mismatch, m_tried}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->hide();
    }

    // Two buttons a row, so the pane stays narrow enough for the table beside it at 1366 px; one a row when two do
    // not fit (kiosk fonts): fitActions().
    m_actions->setHorizontalSpacing(12);
    arrangeActions(2);

    auto *ledgerTitle = new QLabel(tr("Wallet ledger"), this);
    auto *deliveriesTitle = new QLabel(tr("Webhook deliveries"), this);
    QFont bold = ledgerTitle->font();
    bold.setBold(true);
    ledgerTitle->setFont(bold);
    deliveriesTitle->setFont(bold);

    // Everything sits in a scroll area: a long record, ledger and delivery list scroll inside the
    // pane instead of raising the window's minimum height past the screen.
    m_complaints = new ComplaintSection(context, this);
    auto *content = new QWidget;
    content->setObjectName(QStringLiteral("detailContent"));
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 0, 8, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_badge);
    layout->addWidget(m_reversal);
    layout->addWidget(m_mismatch);
    layout->addWidget(m_attention);
    layout->addWidget(m_words);
    layout->addWidget(m_tried);
    layout->addWidget(m_resolution);
    layout->addWidget(m_complaints);
    layout->addLayout(m_fields);
    layout->addLayout(m_actions);
    layout->addWidget(m_message);
    layout->addWidget(m_upstream);
    layout->addWidget(ledgerTitle);
    layout->addWidget(m_ledger, 1);
    layout->addWidget(deliveriesTitle);
    layout->addWidget(m_deliveriesNote);
    layout->addWidget(m_deliveries, 1);
    QScrollArea *scroll = BackOfficeUi::scrollArea(content, this);
    scroll->setObjectName(QStringLiteral("detailScroll"));
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded); // when the splitter makes the pane narrow
    m_scroll = scroll;
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(m_recheck, &QPushButton::clicked, this, &HistoryDetailPane::onRecheckClicked);
    connect(m_reprint, &QPushButton::clicked, this, &HistoryDetailPane::onReprintClicked);
    connect(m_redeliver, &QPushButton::clicked, this, &HistoryDetailPane::onRedeliverClicked);
    connect(m_resolve, &QPushButton::clicked, this, &HistoryDetailPane::onResolveClicked);
    connect(m_upstream, &UpstreamCallsView::message, this, &HistoryDetailPane::showMessage);
    connect(m_upstream, &UpstreamCallsView::rechecked, this, [this] {
        loadRecord();
        loadLedger();
    });
    setTransaction(0);
}

HistoryDetailPane::~HistoryDetailPane() = default;

void HistoryDetailPane::arrangeActions(int columns)
{
    if (columns == m_actionColumns)
        return;
    m_actionColumns = columns;
    const QList<QPushButton *> buttons{m_recheck, m_reprint, m_redeliver, m_resolve};
    for (QPushButton *button : buttons)
        m_actions->removeWidget(button);
    for (qsizetype i = 0; i < buttons.size(); ++i)
        m_actions->addWidget(buttons.at(i), int(i / columns), int(i % columns));
    // The buttons keep their own width; the column after them takes the rest.
    for (int column = 0; column <= 2; ++column)
        m_actions->setColumnStretch(column, column == columns ? 1 : 0);
}

void HistoryDetailPane::fitActions()
{
    int widest = 0;
    for (const QPushButton *button : {m_recheck, m_reprint, m_redeliver, m_resolve})
        widest = qMax(widest, button->sizeHint().width());
    const int available = m_scroll->viewport()->width() - 20; // the content's layout margins (12 + 8)
    arrangeActions(2 * widest + m_actions->horizontalSpacing() <= available ? 2 : 1);
}

void HistoryDetailPane::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitActions();
}

void HistoryDetailPane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitActions(); // the style sheet (kiosk fonts) is applied by now
}

void HistoryDetailPane::setTransaction(qint64 transactionId)
{
    if (transactionId > 0 && transactionId == m_transactionId && m_record) {
        // The same sale again (the history reloaded and selected it again): fresh data, the message kept.
        loadRecord();
        loadLedger();
        loadDeliveries();
        return;
    }
    for (QPointer<ApiCall> *call : {&m_recordCall, &m_ledgerCall, &m_deliveriesCall}) {
        if (*call)
            (*call)->abort();
        *call = nullptr;
    }
    m_transactionId = transactionId;
    m_record = {};
    m_scroll->verticalScrollBar()->setValue(0); // a new sale starts at its top (badge, attention, the upstream's words)
    m_latestAttemptId = 0;
    while (m_fields->rowCount() > 0)
        m_fields->removeRow(0);
    clearTables();
    m_message->hide();
    m_badge->hide();
    m_recheck->setEnabled(false);
    m_reprint->setEnabled(false);
    m_redeliver->setEnabled(false);
    m_resolve->setEnabled(false);
    m_resolve->hide();
    for (QLabel *label : {m_attention, m_words, m_resolution, m_reversal, m_mismatch, m_tried})
        label->hide();
    m_deliveriesNote->clear();
    m_deliveriesNote->hide();
    m_upstream->clear();
    m_complaints->clear();
    if (transactionId <= 0) {
        m_title->setText(tr("Select a sale to see its details"));
        return;
    }
    m_title->setText(tr("Transaction %1").arg(transactionId));
    loadRecord();
    loadLedger();
    loadDeliveries();
}

void HistoryDetailPane::clearTables()
{
    m_ledger->setRowCount(0);
    m_deliveries->setRowCount(0);
}

void HistoryDetailPane::loadRecord()
{
    if (m_recordCall)
        m_recordCall->abort();
    m_recordCall = TransactionsApi(m_context.api())
                       .get(m_transactionId)
                       .then(this, [this](const Answer<TransactionRecord> &answer) { onRecord(answer); });
}

void HistoryDetailPane::onRecord(const Answer<TransactionRecord> &answer)
{
    m_recordCall = nullptr;
    m_recheck->setEnabled(true);
    if (!answer.ok()) {
        showMessage(tr("Could not load the sale: %1").arg(answer.error->description()), true);
        return;
    }
    const TransactionRecord &record = *answer.value;
    const QString before = m_record ? TransactionNames::status(m_status) : QString();
    m_status = record.status;
    m_record = record;
    while (m_fields->rowCount() > 0)
        m_fields->removeRow(0);
    const auto addField = [this](const QString &label, const QString &value, const char *name) {
        auto *text = new QLabel(value.isEmpty() ? tr("—") : value);
        text->setObjectName(QLatin1String(name));
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setWordWrap(true);
        m_fields->addRow(label, text);
    };
    addField(tr("Date and time (IST)"), IstTime::formatMs(record.createdAtMs), "detailDatetime");
    addField(tr("Type"), TransactionNames::type(record.type), "detailType");
    addField(tr("Operator"), record.operatorName, "detailOperator");
    if (record.type == TransactionType::Voucher) {
        addField(tr("Customer e-mail"), record.customerEmail, "detailEmail");
        addField(tr("Redeem code"), record.redeemCode, "detailRedeemCode");
    } else {
        addField(tr("Number"), record.number, "detailNumber");
    }
    addField(tr("Bill"), Money::formatIndian(record.billAmount), "detailBill");
    addField(tr("Discount"), Money::formatIndian(record.discount), "detailDiscount");
    // The spec's `paid` is the wallet's debit (bill − discount); a failed sale's came back to the wallet.
    const QString debit = Money::formatIndian(record.paid);
    addField(tr("Wallet debit"), record.status == TransactionStatus::Failed ? tr("%1, refunded").arg(debit) : debit,
             "detailPaid");
    // Issue 28: how the customer paid the shop, and the shift it was taken in.
    addField(tr("Payment"), ShiftWording::tenderName(record.tender), "detailTender");
    if (record.shiftId > 0)
        addField(tr("Shift"), tr("Shift %1").arg(record.shiftId), "detailShift");
    addField(tr("Reference"), record.referenceId, "detailReference");
    if (record.failedAfterPending && record.status == TransactionStatus::Failed) { // issue 27: the customer had paid
        const QString bill = Money::formatIndian(record.billAmount);
        addField(tr("Money back"),
                 record.tender == QLatin1String("upi")
                     ? tr("Send %1 back to the customer by UPI: the sale failed after they paid. The wallet debit was "
                          "refunded.")
                           .arg(bill)
                     : tr("Give %1 back to the customer: the sale failed after they paid. The wallet debit was "
                          "refunded.")
                           .arg(bill),
                 "detailMoneyBack");
    }
    const QString status = TransactionNames::status(record.status);
    m_badge->setStatus(status);
    m_badge->show();
    m_reprint->setEnabled(true);
    m_upstream->showRecord(record);
    m_complaints->setSale(record);
    showUpstreamOutcome(record);
    if (!before.isEmpty() && before != status)
        showMessage(tr("The status changed from %1 to %2.").arg(before, status), false);
    emit recordChanged(record);
}

void HistoryDetailPane::loadLedger()
{
    m_ledgerCall = TransactionsApi(m_context.api())
                       .ledger(m_transactionId)
                       .then(this, [this](const Answer<Page<LedgerEntry>> &answer) {
                           m_ledgerCall = nullptr;
                           m_ledger->setRowCount(0);
                           if (!answer.ok()) {
                               m_ledger->setRowCount(1);
                               setRow(m_ledger, 0, {tr("Not available: %1").arg(answer.error->description())});
                               return;
                           }
                           const QList<LedgerEntry> &items = answer.value->items;
                           m_ledger->setRowCount(int(items.size()));
                           for (int row = 0; row < items.size(); ++row) {
                               const LedgerEntry &entry = items.at(row);
                               setRow(m_ledger, row,
                                      {LedgerNames::kind(entry.kind), Money::formatIndian(entry.amount),
                                       IstTime::formatMs(entry.createdAtMs), entry.note});
                               m_ledger->item(row, 1)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                           }
                       });
}

void HistoryDetailPane::loadDeliveries()
{
    m_deliveriesCall =
        WebhooksApi(m_context.api())
            .deliveriesOf(m_transactionId, 50)
            .then(this, [this](const Answer<Collection<WebhookDelivery>> &answer) {
                m_deliveriesCall = nullptr;
                m_deliveries->setRowCount(0);
                m_latestAttemptId = 0;
                if (!answer.ok()) {
                    m_deliveriesNote->setText(
                        tr("Webhook deliveries are not available: %1").arg(answer.error->description()));
                    m_redeliver->setEnabled(false);
                    return;
                }
                const QList<WebhookDelivery> &items = answer.value->items;
                m_deliveries->setRowCount(int(items.size()));
                for (int row = 0; row < items.size(); ++row) {
                    const WebhookDelivery &attempt = items.at(row);
                    setRow(m_deliveries, row,
                           {QString::number(attempt.attempt), IstTime::format(attempt.datetime),
                            attempt.httpStatus ? QString::number(*attempt.httpStatus) : tr("—"),
                            attempt.success ? tr("Delivered") : tr("Failed"), attempt.error.value_or(QString())});
                    m_deliveries->item(row, 3)->setForeground(attempt.success ? QColor(0x06, 0x76, 0x47)
                                                                              : QColor(0xb4, 0x23, 0x18));
                    m_latestAttemptId = qMax(m_latestAttemptId, attempt.id);
                }
                m_deliveriesNote->setText(
                    items.isEmpty() ? tr("No webhook was sent for this sale (webhooks are sent when a PENDING sale "
                                         "settles, or none is configured).")
                                    : QString());
                m_deliveriesNote->setVisible(items.isEmpty());
                m_redeliver->setEnabled(m_latestAttemptId > 0);
            });
}

void HistoryDetailPane::onRecheckClicked()
{
    if (m_transactionId <= 0)
        return;
    m_recheck->setEnabled(false);
    m_message->hide();
    loadRecord();
    loadLedger();
    loadDeliveries();
}

ReceiptData HistoryDetailPane::receiptData() const
{
    if (!m_record)
        return {};
    ReceiptData data = ReceiptData::fromRecord(*m_record, m_context.shopName(), m_context.shopAddress(),
                                               IstTime::dateOf(m_context.clock().nowUtc()));
    data.sandbox = m_context.api().isTestMode();
    if (const std::optional<Complaint> &complaint = m_complaints->complaint();
        complaint && complaint->state == QLatin1String("credited"))
        data.complaintCredit = tr("Credited back after complaint %1 (%2)")
                                   .arg(QString::number(complaint->id),
                                        IstTime::toIst(complaint->resolvedAt).toString(QStringLiteral("d MMM")));
    return data;
}

void HistoryDetailPane::onReprintClicked()
{
    if (!m_record)
        return;
    if (!m_printer)
        m_printer = std::make_unique<QPrinter>(QPrinter::HighResolution);
    const ReceiptData data = receiptData();
    const ReceiptWidth width = m_context.settings().value(QStringLiteral("receipts/width_mm"), 80).toInt() == 58
                                   ? ReceiptWidth::Mm58
                                   : ReceiptWidth::Mm80;
    // The duplicate is previewed first (issue 27); the preview's Print button asks for the printer and prints.
    auto *dialog = new QPrintPreviewDialog(m_printer.get(), this);
    dialog->setObjectName(QStringLiteral("reprintDialog"));
    dialog->setWindowTitle(tr("Reprint receipt (DUPLICATE)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto printed = std::make_shared<bool>(true);
    connect(dialog, &QPrintPreviewDialog::paintRequested, this, [data, width, printed](QPrinter *printer) {
        *printed = ReceiptRenderer().print(*printer, data, width, true);
    });
    connect(dialog, &QDialog::accepted, this, [this, printed] {
        if (*printed)
            showMessage(tr("Duplicate receipt sent to the printer."), false);
        else
            showMessage(tr("The printer could not start. Check that it is switched on and has paper."), true);
    });
    DialogFocus::openAndRestore(dialog);
}

void HistoryDetailPane::onRedeliverClicked()
{
    if (m_latestAttemptId <= 0)
        return;
    m_redeliver->setEnabled(false);
    WebhooksApi(m_context.api())
        .redeliver(m_latestAttemptId)
        .then(this, [this](const Answer<WebhookEventInfo> &answer) {
            m_redeliver->setEnabled(true);
            if (!answer.ok()) {
                showMessage(tr("Could not redeliver: %1").arg(answer.error->description()), true);
                return;
            }
            showMessage(tr("The webhook is queued for delivery again."), false);
            loadDeliveries();
        });
}

void HistoryDetailPane::showUpstreamOutcome(const TransactionRecord &record)
{
    const UpstreamSaleInfo upstream = UpstreamSaleInfo::fromRecord(record);
    const bool pending = record.status == TransactionStatus::Pending;
    const QString attention = pending ? upstream.attentionText() : QString();
    m_attention->setText(attention.isEmpty() ? QString() : tr("Needs attention. %1").arg(attention));
    m_attention->setVisible(!attention.isEmpty());
    // A refused sale: the upstream's own words (a spec-only aggregator's reasons are its own), whatever they mean.
    const bool refused = upstream.state == QLatin1String("refused") || record.status == TransactionStatus::Failed;
    const QString words = upstream.present && refused && upstream.hasError() ? upstream.wordsText() : QString();
    m_words->setText(words);
    m_words->setVisible(!words.isEmpty());
    UpstreamSaleInfo shown = upstream;
    shown.resolvedBy = BackOfficeUi::actorText(upstream.resolvedBy); // "user:Asha" -> "Asha"
    const QDate today = IstTime::dateOf(m_context.clock().nowUtc());
    const QString resolution = shown.resolutionText(today);
    m_resolution->setText(resolution);
    m_resolution->setVisible(!resolution.isEmpty());
    // Issue 26: a reversal (sold, then FAILED by the operator: refunded once), a status the upstream reports against
    // ours (never applied by itself), and the upstreams that refused the sale before the one it went to.
    const QString reversal = upstream.reversalText(today);
    m_reversal->setText(reversal.isEmpty() ? QString()
                                           : tr("%1.\n%2").arg(reversal, upstream.reversalDetailText(
                                                                             Money::formatIndian(record.paid))));
    m_reversal->setVisible(!reversal.isEmpty());
    const QString mismatch = upstream.mismatchText(TransactionNames::status(record.status), today);
    m_mismatch->setText(mismatch);
    m_mismatch->setVisible(!mismatch.isEmpty());
    const QString tried = upstream.triedText();
    m_tried->setText(tried);
    m_tried->setVisible(!tried.isEmpty());
    // Live sales only (a sandbox sale has no upstream part and settles by itself).
    m_resolve->setVisible(upstream.present);
    m_resolve->setEnabled(upstream.present && pending);
}

void HistoryDetailPane::onResolveClicked()
{
    if (!m_record || m_record->status != TransactionStatus::Pending)
        return;
    auto *dialog = new ResolveDialog(m_context, *m_record, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    const qint64 id = m_transactionId;
    connect(dialog, &ResolveDialog::resolved, this, [this, id](const TransactionRecord &record) {
        if (id != m_transactionId)
            return;
        onRecord(Answer<TransactionRecord>{record, {}, 200});
        showMessage(record.status == TransactionStatus::Failed
                        ? tr("Resolved as not recharged: the sale is FAILED and %1 went back to the wallet.")
                              .arg(Money::formatIndian(record.paid))
                        : tr("Resolved as recharged: the sale is SUCCESS."),
                    false);
        loadLedger();
        loadDeliveries();
        emit saleResolved(record);
        emit m_context.salesChanged(); // the status bar's wallet, pending and attention counts
        m_reprint->setFocus();         // Resolve… is disabled now: the next likely step is a receipt
    });
    // Whatever the answer (a 409: someone or something ended it meanwhile), show the sale as it is now.
    connect(dialog, &QDialog::rejected, this, [this, id] {
        if (id == m_transactionId)
            loadRecord();
    });
    dialog->open();
}

void HistoryDetailPane::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setProperty("error", error);
    Look::set(m_message, error ? "problem" : "notice");
    m_message->show();
}

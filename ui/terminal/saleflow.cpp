#include "saleflow.h"

#include "apiclient.h"
#include "counterprefs.h"
#include "repeatsalepanel.h"
#include "salechecks.h"
#include "saleconfirmpanel.h"
#include "saleform.h"
#include "salehistory.h"
#include "saleresultpanel.h"
#include "salesapi.h"
#include "statuspoller.h"
#include "upilink.h"
#include "walletapi.h"
#include "widgets/look.h"
#include "widgets/verticalscroll.h"

#include <QApplication>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace {

const QString kReferenceField = QStringLiteral("reference_id");
const QString kTenderField = QStringLiteral("tender");

/// Errors after which the very same sale may be sent again: nothing definite came back.
bool isRetryable(const ApiError &error)
{
    const int status = error.httpStatus();
    // An answer that does not decode (bad_answer) may be a sale made: retrying with the same reference is safe.
    return status == 0 || status == 429 || status >= 500 || error.reason() == QLatin1String("bad_answer");
}

} // namespace

SaleFlow::SaleFlow(TerminalContext &context, const QString &title, QWidget *parent)
    : QWidget(parent), m_context(context), m_stack(new QStackedWidget(this)), m_form(new SaleForm(this)),
      m_confirm(new SaleConfirmPanel(this)), m_result(new SaleResultPanel(context, this)),
      m_repeat(new RepeatSalePanel(this)), m_poller(new StatusPoller(context.api(), this))
{
    auto *heading = new QLabel(title, this);
    Look::set(heading, "pageTitle");
    for (QWidget *panel : {static_cast<QWidget *>(m_form), static_cast<QWidget *>(m_confirm),
                           static_cast<QWidget *>(m_result), static_cast<QWidget *>(m_repeat)}) {
        // Each panel scrolls on its own, so large kiosk fonts never clip a form; the card keeps
        // its natural height, centred at the top.
        panel->setMaximumWidth(820);
        auto *holder = new QWidget;
        auto *row = new QHBoxLayout;
        row->addStretch(1);
        row->addWidget(panel, 1000);
        row->addStretch(1);
        auto *holderLayout = new QVBoxLayout(holder);
        holderLayout->setContentsMargins(0, 0, 0, 0);
        holderLayout->addLayout(row);
        holderLayout->addStretch(1);
        if (panel == m_result) {
            // The result scrolls its details itself and keeps its buttons on screen (issue 27): it gets the height
            // there is, not its natural height in a scrolling page.
            m_stack->addWidget(holder);
            continue;
        }
        m_stack->addWidget(makeVerticalScroll(holder, m_stack));
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 16, 24, 16);
    layout->addWidget(heading);
    layout->addWidget(m_stack, 1);

    connect(m_confirm, &SaleConfirmPanel::confirmed, this, &SaleFlow::send);
    connect(m_confirm, &SaleConfirmPanel::tenderChanged, this, &SaleFlow::showCustomer);
    connect(m_confirm, &SaleConfirmPanel::backRequested, this, [this] {
        setStage(Stage::Form);
        m_form->focusFirst();
    });
    connect(m_repeat, &RepeatSalePanel::sellAgain, this, [this] {
        if (m_stage == Stage::RepeatWarning)
            showConfirmation();
    });
    connect(m_repeat, &RepeatSalePanel::goBack, this, [this] {
        if (m_stage != Stage::RepeatWarning)
            return;
        setStage(Stage::Form);
        m_form->focusFirst();
    });
    connect(m_result, &SaleResultPanel::newSaleRequested, this, &SaleFlow::newSale);
    connect(m_poller, &StatusPoller::settled, this, &SaleFlow::onSettled);
    connect(m_poller, &StatusPoller::stillPending, m_result, &SaleResultPanel::setNextCheck);
    connect(&context.api(), &ApiClient::reachabilityChanged, this, &SaleFlow::onReachabilityChanged);
    connect(m_poller, &StatusPoller::pendingRecord, m_result, [this](const TransactionRecord &record) {
        if (showsSale(record.transactionId))
            m_result->showRecord(record); // e.g. the upstream's state moved from unknown to pending
    });
    if (context.customerPanelOnConfirm()) {
        // A kiosk on one screen: the customer reads what to pay (and scans the QR) on the confirmation itself.
        auto *customer = new CustomerDisplayPanel;
        customer->setProperty("embedded", true); // its compact looks (ui/style.qss): it shares the screen
        m_confirm->setCustomerPanel(customer);
        connect(&context, &TerminalContext::customerViewChanged, customer,
                [this, customer](const CustomerDisplayState &state) {
                    if (isVisible())
                        customer->setState(state);
                });
    }
    for (const QKeySequence &keys : {QKeySequence(Qt::CTRL | Qt::Key_N), QKeySequence(Qt::Key_F8)}) {
        auto *shortcut = new QShortcut(keys, this);
        connect(shortcut, &QShortcut::activated, this, &SaleFlow::newSale);
    }
}

void SaleFlow::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    showCustomer(); // the clerk came to this screen: the customer sees its sale (or idle)
    if (m_stage == Stage::Form && !m_form->isAncestorOf(QApplication::focusWidget()))
        m_form->focusFirst();
}

void SaleFlow::focusCurrentStage()
{
    switch (m_stage) {
    case Stage::Form:
    case Stage::Checking:
        m_form->focusFirst();
        break;
    case Stage::RepeatWarning:
        m_repeat->noButton()->setFocus(Qt::OtherFocusReason);
        break;
    case Stage::Confirm:
        m_confirm->confirmButton()->setFocus(Qt::OtherFocusReason);
        break;
    case Stage::Result:
        m_result->focusDefaultButton();
        break;
    case Stage::Sending:
        break;
    }
}

void SaleFlow::setStage(Stage stage)
{
    m_stage = stage;
    const int index = stage == Stage::Form || stage == Stage::Checking ? 0
                      : stage == Stage::Result                         ? 2
                      : stage == Stage::RepeatWarning                  ? 3
                                                                       : 1;
    m_stack->setCurrentIndex(index);
    m_confirm->setSending(stage == Stage::Sending);
    m_form->setBusy(stage == Stage::Checking ? tr("Checking this number's recent sales…") : QString());
    showCustomer();
}

CustomerDisplayState SaleFlow::customerState() const
{
    using Stage = CustomerDisplayState::Stage;
    CustomerDisplayState state;
    state.shopName = m_context.shopName();
    if (m_stage == SaleFlow::Stage::Confirm || m_stage == SaleFlow::Stage::Sending) {
        state.stage = Stage::ToPay;
        state.operatorName = m_draft.op.name;
        state.number = m_draft.kind == ProductKind::Voucher ? QString() : m_draft.subject;
        state.amount = m_draft.bill;
        state.tender = Tenders::wireName(m_confirm->tender());
        state.upiLink = upiLink();
        return state;
    }
    if (m_stage != SaleFlow::Stage::Result || !m_result->record())
        return state; // idle
    const ReceiptData data = m_result->receiptData();
    state.operatorName = m_result->record()->operatorName;
    state.number = m_result->record()->number;
    state.amount = m_result->record()->billAmount;
    state.tender = data.tender;
    state.stage = data.givesMoneyBack()                     ? Stage::MoneyBack
                  : data.failed()                           ? Stage::NotRecharged
                  : data.status == QLatin1String("PENDING") ? Stage::Waiting
                                                            : Stage::Recharged;
    return state;
}

void SaleFlow::showCustomer()
{
    // Only the screen the clerk is on speaks to the customer (another sale screen may hold an older result).
    if (isVisible())
        emit m_context.customerViewChanged(customerState());
}

void SaleFlow::confirm(const SaleDraft &draft)
{
    if (m_stage == Stage::Sending || m_stage == Stage::Checking)
        return;
    m_draft = draft;
    if (draft.op.kind == ProductKind::Voucher || draft.subject.isEmpty()) {
        showConfirmation();
        return;
    }
    setStage(Stage::Checking);
    const qint64 since = m_context.clock().nowMs() - SaleHistory::kRepeatWindowMs;
    SaleHistory::lookUp(m_context.api(), draft.op.kind, draft.subject, since)
        .then(this, [this](const Answer<Page<TransactionRecord>> &answer) { onRecentSales(answer); });
}

void SaleFlow::onRecentSales(const Answer<Page<TransactionRecord>> &answer)
{
    if (m_stage != Stage::Checking)
        return; // the clerk moved on (new sale) meanwhile
    const std::optional<TransactionRecord> earlier =
        SaleHistory::sameAmount(SaleHistory::records(answer, m_draft.subject), m_draft.bill);
    if (!earlier) {
        showConfirmation();
        return;
    }
    m_form->clearErrors();
    setStage(Stage::RepeatWarning);
    m_repeat->ask(*earlier);
}

void SaleFlow::showConfirmation()
{
    const SaleDraft &draft = m_draft;
    // A sale identical to the last one sent without a definite answer keeps its reference, so
    // the server recognises it; anything else is a new sale with a new reference.
    if (!draft.typedReference.isEmpty())
        m_referenceId = draft.typedReference;
    else if (m_sentBody.isEmpty() || m_sentBody != draft.body || m_referenceId.isEmpty())
        m_referenceId = SaleChecks::newReferenceId();
    m_form->clearErrors();
    m_confirm->showDraft(draft, CounterPrefs(m_context.settings()).lastTender(), upiLink(), upiPayee());
    setStage(Stage::Confirm);
    m_confirm->confirmButton()->setFocus(Qt::OtherFocusReason);

    if (m_walletCall)
        m_walletCall->abort();
    m_walletCall = WalletApi(m_context.api()).balance().then(this, [this](const Answer<WalletBalance> &answer) {
        m_confirm->setWallet(answer.ok() ? std::optional<Paise>(answer.value->balance) : std::nullopt);
    });
}

QString SaleFlow::upiPayee() const
{
    // The payee name defaults to the shop's name.
    const QString payee = m_context.shop().upiPayeeName.trimmed();
    return payee.isEmpty() ? m_context.shopName() : payee;
}

QString SaleFlow::upiLink() const
{
    const QString &vpa = m_context.shop().upiVpa;
    const QString number = m_draft.kind == ProductKind::Voucher ? QString() : m_draft.subject;
    // Without the shop's UPI ID there is no QR.
    return vpa.isEmpty() ? QString()
                         : UpiLink::build(vpa, upiPayee(), m_draft.bill, UpiLink::saleNote(number, m_referenceId));
}

void SaleFlow::send()
{
    if (m_stage != Stage::Confirm)
        return;
    if (m_context.needsShift()) {
        // The shop sells within shifts only: the sale waits on its confirmation while the clerk opens one.
        m_confirm->showProblem(tr("Open a shift first: this shop sells only within a shift. Then confirm again."));
        emit m_context.shiftNeeded();
        return;
    }
    m_draft.tender = m_confirm->tender();
    m_draft.cashReceived = m_confirm->cashReceived();
    m_draft.upiLink = m_draft.tender == Tender::Upi ? upiLink() : QString();
    CounterPrefs(m_context.settings()).setLastTender(m_draft.tender);
    QJsonObject body = m_draft.body;
    body.insert(kReferenceField, m_referenceId);
    body.insert(kTenderField, Tenders::wireName(m_draft.tender));
    m_sentBody = m_draft.body;
    setStage(Stage::Sending);
    SalesApi(m_context.api()).initiate(m_draft.kind, body).then(this, [this](const Answer<TransactionRecord> &answer) {
        onSent(answer);
    });
}

void SaleFlow::onSent(const Answer<TransactionRecord> &answer)
{
    if (m_stage != Stage::Sending)
        return;
    if (!answer.ok() && isRetryable(*answer.error)) {
        // Nothing definite: the sale may or may not exist. Retry sends the same reference.
        setStage(Stage::Confirm);
        m_confirm->showRetry(tr("%1\nThe sale was not confirmed. Retry sends it again safely: if it already went "
                                "through, the server returns it instead of charging twice.")
                                 .arg(answer.error->description()));
        return;
    }
    m_sentBody = QJsonObject();
    if (!answer.ok() && answer.error->httpStatus() == 409 && answer.error->reason() == QLatin1String("no_open_shift")) {
        // Nothing was sold: the clerk opens a shift (the dialog comes up) and confirms again.
        setStage(Stage::Confirm);
        m_confirm->showProblem(tr("No shift is open for you: open a shift, then confirm the sale again."));
        emit m_context.shiftNeeded();
        return;
    }
    if (!answer.ok()) {
        setStage(Stage::Form);
        if (answer.error->httpStatus() == 402)
            explainInsufficientBalance();
        else
            m_form->showError(SaleChecks::plainError(*answer.error));
        return;
    }
    const TransactionRecord &sale = *answer.value;
    m_result->showSale(sale, m_draft);
    setStage(Stage::Result);
    m_result->focusDefaultButton();
    emit saleRecorded(sale);
    emit m_context.salesChanged();
    // Cash taken (the sale went through or is on its way): the drawer opens for it (issue 28).
    if (m_draft.tender == Tender::Cash && sale.status != TransactionStatus::Failed)
        emit m_context.cashDrawerNeeded();
    if (sale.status == TransactionStatus::Pending) {
        m_poller->start(sale.transactionId);
        m_result->setNextCheck(m_poller->currentDelayMs());
    }
}

bool SaleFlow::showsSale(qint64 transactionId) const
{
    return m_result->record() && m_result->record()->transactionId == transactionId;
}

void SaleFlow::onSettled(const TransactionRecord &record)
{
    if (!showsSale(record.transactionId))
        return;
    m_result->showRecord(record);
    showCustomer();
    emit m_context.salesChanged();
}

void SaleFlow::onReachabilityChanged(bool reachable)
{
    if (!m_poller->isActive())
        return;
    m_result->setServerOffline(!reachable);
    if (reachable)
        m_poller->checkNow();
}

void SaleFlow::explainInsufficientBalance()
{
    const Paise paid = m_draft.paid();
    m_form->showGeneral(tr("The wallet cannot cover %1. Top up in the back office.").arg(Money::formatIndian(paid)));
    WalletApi(m_context.api()).balance().then(this, [this, paid](const Answer<WalletBalance> &answer) {
        if (m_stage != Stage::Form || !answer.ok())
            return;
        m_form->showGeneral(tr("Wallet has %1 but this sale needs %2; top up in the back office.")
                                .arg(Money::formatIndian(answer.value->balance), Money::formatIndian(paid)));
    });
}

void SaleFlow::newSale()
{
    if (m_stage == Stage::Sending)
        return;
    // The clerk collected the money for a sale still PENDING: the status bar keeps an eye on it (issue 27).
    if (m_stage == Stage::Result && m_result->record() && m_result->record()->status == TransactionStatus::Pending)
        emit m_context.saleLeftPending(*m_result->record());
    m_poller->stop();
    m_result->setNextCheck(0);
    m_result->setServerOffline(false);
    m_sentBody = QJsonObject();
    m_referenceId.clear();
    m_form->clearErrors();
    setStage(Stage::Form);
    emit newSaleRequested();
    m_form->focusFirst();
}

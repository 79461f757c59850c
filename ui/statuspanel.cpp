#include "statuspanel.h"

#include "apiclient.h"
#include "funds/distributorbalancewatch.h"
#include "money.h"
#include "shopapi.h"
#include "terminal/salehistory.h"
#include "transactionsapi.h"
#include "upstreamindicator.h"
#include "walletapi.h"
#include "widgets/elidedlabel.h"
#include "widgets/look.h"

#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>

#include <algorithm>

StatusPanel::StatusPanel(TerminalContext &context, QStatusBar *bar, QObject *parent)
    : QObject(parent), m_context(context), m_server(new QLabel(bar)), m_wallet(new QLabel(bar)),
      m_distributorLabel(new ElidedLabel(bar)), m_pending(new QLabel(bar)), m_user(new QLabel(bar)),
      m_upstreamLabel(new QLabel(bar)), m_attentionLabel(new QLabel(bar)), m_moneyBack(new QLabel(bar)),
      m_moneyBackDone(new QPushButton(bar)),
      m_upstream(new UpstreamIndicator(context.api(), m_upstreamLabel, m_attentionLabel, this)),
      m_distributor(new DistributorBalanceWatch(context, m_distributorLabel, this))
{
    m_server->setObjectName(QStringLiteral("serverState"));
    m_wallet->setObjectName(QStringLiteral("walletBalance"));
    m_pending->setObjectName(QStringLiteral("pendingCount"));
    bar->addWidget(m_server);
    bar->addWidget(m_wallet);
    bar->addWidget(m_distributorLabel);
    bar->addWidget(m_pending);
    bar->addWidget(m_upstreamLabel);
    bar->addWidget(m_attentionLabel);
    m_moneyBack->setObjectName(QStringLiteral("moneyBack"));
    Look::set(m_moneyBack, "lowBalance"); // the status bar's red, bold warning
    m_moneyBackDone->setObjectName(QStringLiteral("moneyGivenBack"));
    m_moneyBackDone->setText(tr("Given back"));
    m_moneyBackDone->setToolTip(tr("Press once the customer has their money back"));
    bar->addWidget(m_moneyBack);
    bar->addWidget(m_moneyBackDone);
    showMoneyBack();
    connect(m_moneyBackDone, &QPushButton::clicked, this, &StatusPanel::onMoneyGivenBack);
    connect(&context, &TerminalContext::saleLeftPending, this, [this](const TransactionRecord &record) {
        m_leftPending.append(record);
        refreshLeftPending();
    });
    bar->addPermanentWidget(m_user);
    m_timer.setInterval(15'000);
    connect(&m_timer, &QTimer::timeout, this, &StatusPanel::refresh);
    connect(&context, &TerminalContext::salesChanged, this, &StatusPanel::refresh);
    // Every call of every screen tells whether the server answers: a refused or timed-out call
    // shows OFFLINE at once, the next answer shows online again (no waiting for the next poll).
    connect(&context.api(), &ApiClient::reachabilityChanged, this, &StatusPanel::showServerState);
    connect(&context, &TerminalContext::userChanged, this, [this] {
        const SignedInUser &user = m_context.user();
        m_user->setText(user.name.isEmpty() ? QString()
                                            : tr("%1 (%2)").arg(user.name, user.isAdmin ? tr("admin") : tr("clerk")));
    });
    m_timer.start();
    refresh();
}

QString StatusPanel::serverText() const
{
    return m_server->text();
}

QString StatusPanel::walletText() const
{
    return m_wallet->text();
}

QString StatusPanel::pendingText() const
{
    return m_pending->text();
}

QString StatusPanel::distributorText() const
{
    return m_distributor->text();
}

QString StatusPanel::upstreamText() const
{
    return m_upstreamLabel->isVisibleTo(m_upstreamLabel->parentWidget()) ? m_upstreamLabel->text() : QString();
}

QString StatusPanel::attentionText() const
{
    return m_attentionLabel->isVisibleTo(m_attentionLabel->parentWidget()) ? m_attentionLabel->text() : QString();
}

void StatusPanel::refresh()
{
    refreshHealth();
    refreshWallet();
    refreshPending();
    refreshLeftPending();
    m_upstream->refresh();
    m_distributor->refresh(); // at most once a minute
}

QString StatusPanel::moneyBackText() const
{
    return m_moneyBackSales.isEmpty() ? QString() : m_moneyBack->text();
}

void StatusPanel::refreshLeftPending()
{
    for (const TransactionRecord &left : std::as_const(m_leftPending)) {
        const qint64 id = left.transactionId;
        TransactionsApi(m_context.api()).get(id).then(this, [this, id](const Answer<TransactionRecord> &answer) {
            if (!answer.ok() || answer.value->status == TransactionStatus::Pending)
                return; // asked again at the next refresh
            const auto followed = std::find_if(m_leftPending.cbegin(), m_leftPending.cend(),
                                               [id](const TransactionRecord &r) { return r.transactionId == id; });
            if (followed == m_leftPending.cend())
                return; // an answer to an earlier refresh already ended it
            m_leftPending.erase(followed);
            if (answer.value->status == TransactionStatus::Failed) {
                m_moneyBackSales.append(*answer.value);
                showMoneyBack();
            }
            emit m_context.salesChanged(); // the pending count and the wallet (a refund) moved
        });
    }
}

void StatusPanel::showMoneyBack()
{
    const bool any = !m_moneyBackSales.isEmpty();
    m_moneyBack->setVisible(any);
    m_moneyBackDone->setVisible(any);
    if (!any) {
        m_moneyBack->clear();
        return;
    }
    const TransactionRecord &sale = m_moneyBackSales.constFirst();
    const QString who = sale.number.isEmpty() ? sale.customerEmail : SaleHistory::groupedNumber(sale.number);
    const QString amount = Money::formatIndian(sale.billAmount);
    // Paid by UPI (issue 28): the money goes back by UPI, not from the drawer.
    const bool upi = sale.tender == QLatin1String("upi");
    QString text;
    if (upi)
        text = who.isEmpty()
                   ? tr("Refund %1 by UPI to the customer (sale %2)").arg(amount).arg(sale.transactionId)
                   : tr("Refund %1 by UPI to the customer of %2 (sale %3)").arg(amount, who).arg(sale.transactionId);
    else
        text = who.isEmpty()
                   ? tr("Give %1 back to the customer (sale %2)").arg(amount).arg(sale.transactionId)
                   : tr("Give %1 back to the customer of %2 (sale %3)").arg(amount, who).arg(sale.transactionId);
    m_moneyBackDone->setText(upi ? tr("Refunded") : tr("Given back"));
    if (m_moneyBackSales.size() > 1)
        text += tr(" · %n more", nullptr, int(m_moneyBackSales.size() - 1));
    m_moneyBack->setText(text);
    m_moneyBack->setToolTip(tr("The sale failed after the customer paid (it was PENDING when you moved on). The "
                               "wallet debit was refunded."));
}

void StatusPanel::onMoneyGivenBack()
{
    if (!m_moneyBackSales.isEmpty())
        m_moneyBackSales.removeFirst();
    showMoneyBack();
}

void StatusPanel::refreshHealth()
{
    ApiCall *call = m_context.api().fetch(QUrl(m_context.api().baseUrl().toString() + QStringLiteral("/healthz")));
    connect(call, &ApiCall::finished, this,
            [this](const ApiResult &result) { showServerState(result.httpStatus == 200); });
}

void StatusPanel::showServerState(bool online)
{
    const QString address = m_context.api().baseUrl().authority();
    m_server->setText(online ? tr("Server %1: online").arg(address) : tr("Server %1: OFFLINE").arg(address));
    m_server->setProperty("online", online);
}

void StatusPanel::refreshWallet()
{
    WalletApi(m_context.api()).balance().then(this, [this](const Answer<WalletBalance> &answer) {
        if (!answer.ok()) {
            m_wallet->setText(tr("Wallet: unavailable"));
            m_wallet->setToolTip(answer.error->description());
            return;
        }
        m_wallet->setToolTip(QString());
        const Paise balance = answer.value->balance;
        const bool low = balance < m_lowBalancePaise;
        m_wallet->setText(low ? tr("Wallet: %1 — LOW, top up").arg(Money::formatIndian(balance))
                              : tr("Wallet: %1").arg(Money::formatIndian(balance)));
        Look::set(m_wallet, low ? "lowBalance" : "");
    });
    ShopApi(m_context.api()).get().then(this, [this](const Answer<ShopInfo> &answer) {
        if (!answer.ok())
            return;
        m_lowBalancePaise = answer.value->lowBalanceThreshold;
        m_context.applyShop(*answer.value);
    });
}

void StatusPanel::refreshPending()
{
    TransactionQuery query;
    query.status = QStringLiteral("PENDING");
    query.limit = 200;
    TransactionsApi(m_context.api()).list(query).then(this, [this](const Answer<Page<TransactionRecord>> &answer) {
        if (!answer.ok())
            return;
        const qsizetype count = answer.value->items.size();
        const bool more = !answer.value->isLast();
        m_pending->setText(tr("Pending: %1%2").arg(count).arg(more ? QStringLiteral("+") : QString()));
    });
}

#include "statuspanel.h"

#include "apiclient.h"
#include "money.h"
#include "shopapi.h"
#include "transactionsapi.h"
#include "upstreamindicator.h"
#include "walletapi.h"
#include "widgets/look.h"

#include <QLabel>
#include <QStatusBar>
#include <QStyle>

StatusPanel::StatusPanel(TerminalContext &context, QStatusBar *bar, QObject *parent)
    : QObject(parent), m_context(context), m_server(new QLabel(bar)), m_wallet(new QLabel(bar)),
      m_pending(new QLabel(bar)), m_user(new QLabel(bar)), m_upstreamLabel(new QLabel(bar)),
      m_attentionLabel(new QLabel(bar)),
      m_upstream(new UpstreamIndicator(context.api(), m_upstreamLabel, m_attentionLabel, this))
{
    m_server->setObjectName(QStringLiteral("serverState"));
    m_wallet->setObjectName(QStringLiteral("walletBalance"));
    m_pending->setObjectName(QStringLiteral("pendingCount"));
    bar->addWidget(m_server);
    bar->addWidget(m_wallet);
    bar->addWidget(m_pending);
    bar->addWidget(m_upstreamLabel);
    bar->addWidget(m_attentionLabel);
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
    m_upstream->refresh();
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

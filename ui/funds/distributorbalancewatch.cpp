#include "distributorbalancewatch.h"

#include "distributorlookup.h"
#include "terminalcontext.h"
#include "upstreamfundsapi.h"
#include "widgets/elidedlabel.h"
#include "widgets/look.h"

DistributorBalanceWatch::DistributorBalanceWatch(TerminalContext &context, ElidedLabel *label, QObject *parent,
                                                 int intervalMs)
    : QObject(parent), m_context(context), m_label(label), m_lookup(new DistributorLookup(context.api(), this)),
      m_intervalMs(intervalMs)
{
    m_label->setObjectName(QStringLiteral("distributorWarning"));
    Look::set(m_label, "lowBalance");
    m_label->hide();
    connect(&context, &TerminalContext::shopChanged, this, &DistributorBalanceWatch::show); // a new threshold
}

void DistributorBalanceWatch::refresh()
{
    if (m_asked.isValid() && m_asked.elapsed() < m_intervalMs)
        return;
    m_asked.start();
    ask();
}

void DistributorBalanceWatch::ask()
{
    m_lookup->find([this](bool answered, const std::optional<UpstreamInfo> &upstream) {
        if (!answered)
            return; // the server line says it is offline; the last figure stays
        if (!upstream) {
            m_balance.reset();
            show();
            return;
        }
        if (m_call)
            m_call->abort();
        m_call = UpstreamFundsApi(m_context.api())
                     .wallet(upstream->name)
                     .then(this, [this](const Answer<UpstreamWallet> &answer) {
                         // Not asked, or no figure: no warning (the Distributor card says why).
                         m_balance = answer.ok() ? answer.value->balance : std::nullopt;
                         show();
                     });
    });
}

void DistributorBalanceWatch::show()
{
    const Paise threshold = m_context.shop().lowBalanceThreshold;
    const bool low = m_balance && threshold > 0 && *m_balance < threshold;
    const QString balance = m_balance ? Money::formatIndian(*m_balance) : QString();
    const QString below = Money::formatIndian(threshold);
    m_label->setFullText(low ? tr("Distributor balance %1 — below %2").arg(balance, below) : QString(),
                         low ? tr("Distributor %1 — below %2").arg(balance, below) : QString());
    m_label->setToolTip(low ? m_label->fullText() + QLatin1Char('\n') +
                                  tr("Your distributor's figure for this shop is below the low-balance threshold: "
                                     "request a top-up in Back office → Wallet → Distributor. Sales go on as usual.")
                            : QString());
    m_label->setVisible(low);
}

QString DistributorBalanceWatch::text() const
{
    return m_label->isHidden() ? QString() : m_label->fullText();
}

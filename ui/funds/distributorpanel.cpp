#include "distributorpanel.h"

#include "backoffice/backofficeui.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/typedcolumn.h"
#include "clock.h"
#include "fundrequestdialog.h"
#include "fundwords.h"
#include "money.h"
#include "terminalcontext.h"
#include "upstreamfundsapi.h"
#include "widgets/columnwidths.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace {

constexpr int kPageSize = 50; ///< requests per page; older ones load as the list scrolls

QList<CollectionColumn> requestColumns()
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    using R = UpstreamFundRequest;
    return {
        TypedColumn::make<R>(DistributorPanel::tr("Asked (IST)"),
                             [](const R &r) { return IstTime::format(r.createdAt); }),
        TypedColumn::make<R>(
            DistributorPanel::tr("Amount"), [](const R &r) { return Money::formatIndian(r.amount); }, right),
        TypedColumn::make<R>(DistributorPanel::tr("Paid by"),
                             [](const R &r) { return FundWords::methodText(r.method); }),
        TypedColumn::make<R>(DistributorPanel::tr("UTR"), [](const R &r) { return r.utr; }),
        TypedColumn::make<R>(DistributorPanel::tr("State"), [](const R &r) { return FundWords::stateText(r); }),
    };
}

/// "₹1,234.00", or "—" for no figure.
QString figure(const std::optional<Paise> &amount)
{
    return amount ? Money::formatIndian(*amount) : QStringLiteral("—");
}

} // namespace

DistributorPanel::DistributorPanel(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_heading(BackOfficeUi::heading(tr("Distributor"), this)),
      m_theirs(new QLabel(QStringLiteral("—"), this)), m_ours(new QLabel(QStringLiteral("—"), this)),
      m_difference(new QLabel(this)), m_explained(new QLabel(this)), m_unexplained(new QLabel(this)),
      m_where(new QLabel(this)), m_checked(new QLabel(this)), m_error(new QLabel(this)),
      m_refresh(new QPushButton(tr("Check &again"), this)), m_request(new QPushButton(tr("Re&quest top-up…"), this)),
      m_requestsError(BackOfficeUi::generalError(this)), m_table(nullptr), m_requestsBox(new QWidget(this))
{
    setObjectName(QStringLiteral("distributorPanel"));
    m_heading->setObjectName(QStringLiteral("distributorHeading"));
    m_where->setObjectName(QStringLiteral("distributorWhere"));
    Look::set(m_where, "hint");
    m_where->setWordWrap(true);
    m_theirs->setObjectName(QStringLiteral("distributorBalance"));
    BackOfficeUi::makeBigValue(m_theirs);
    m_ours->setObjectName(QStringLiteral("distributorLocalBalance"));
    BackOfficeUi::makeBigValue(m_ours);
    m_difference->setObjectName(QStringLiteral("distributorDifference"));
    Look::set(m_difference, "strong");
    m_difference->setWordWrap(true);
    m_explained->setObjectName(QStringLiteral("distributorExplained"));
    m_explained->setWordWrap(true);
    m_unexplained->setObjectName(QStringLiteral("distributorUnexplained"));
    Look::set(m_unexplained, "problem");
    m_unexplained->setWordWrap(true);
    m_unexplained->hide();
    m_checked->setObjectName(QStringLiteral("distributorChecked"));
    Look::set(m_checked, "hint");
    m_error->setObjectName(QStringLiteral("distributorError"));
    Look::set(m_error, "warning");
    m_error->setWordWrap(true);
    m_error->hide();
    m_refresh->setObjectName(QStringLiteral("distributorRefresh"));
    m_request->setObjectName(QStringLiteral("requestTopup"));
    BackOfficeUi::makePrimary(m_request);
    m_requestsError->setObjectName(QStringLiteral("fundRequestsError"));

    // The card: the two figures side by side, then the difference and what explains it.
    QWidget *card = BackOfficeUi::card(this);
    card->setObjectName(QStringLiteral("distributorCard"));
    auto *cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(20, 14, 20, 14);
    cardLayout->setSpacing(6);
    auto *headingRow = new QHBoxLayout;
    headingRow->addWidget(m_heading, 1);
    headingRow->addWidget(m_refresh);
    cardLayout->addLayout(headingRow);
    cardLayout->addWidget(m_where);
    auto *figures = new QGridLayout;
    figures->setHorizontalSpacing(24);
    auto *theirsTitle = new QLabel(tr("Their figure for us"), this);
    auto *oursTitle = new QLabel(tr("Our live wallet"), this);
    for (QLabel *title : {theirsTitle, oursTitle})
        Look::set(title, "hint");
    figures->addWidget(theirsTitle, 0, 0);
    figures->addWidget(oursTitle, 0, 1);
    figures->addWidget(m_theirs, 1, 0);
    figures->addWidget(m_ours, 1, 1);
    figures->setColumnStretch(2, 1);
    cardLayout->addLayout(figures);
    cardLayout->addWidget(m_difference);
    cardLayout->addWidget(m_explained);
    cardLayout->addWidget(m_unexplained);
    cardLayout->addWidget(m_error);
    cardLayout->addWidget(m_checked);
    cardLayout->addStretch(1);

    // Below: the requests, newest first.
    auto *requestsLayout = new QVBoxLayout(m_requestsBox);
    requestsLayout->setContentsMargins(0, 0, 0, 0);
    auto *requestsRow = new QHBoxLayout;
    requestsRow->addWidget(BackOfficeUi::heading(tr("Top-up requests (newest first)"), m_requestsBox), 1);
    requestsRow->addWidget(m_request);
    requestsLayout->addLayout(requestsRow);
    requestsLayout->addWidget(m_requestsError);
    m_table = BackOfficeUi::table(nullptr, QStringLiteral("fundRequestsTable"), m_requestsBox);
    requestsLayout->addWidget(m_table, 1);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->setSpacing(12);
    card->setMaximumWidth(480); // the requests' states take the rest
    layout->addWidget(card, 1);
    layout->addWidget(m_requestsBox, 2);

    m_follow.setInterval(kFollowIntervalMs);
    connect(&m_follow, &QTimer::timeout, this, &DistributorPanel::refresh);
    connect(m_refresh, &QPushButton::clicked, this, &DistributorPanel::refresh);
    connect(m_request, &QPushButton::clicked, this, &DistributorPanel::openRequestDialog);
}

DistributorPanel::~DistributorPanel() = default;

void DistributorPanel::setUpstream(const UpstreamInfo &upstream)
{
    const bool same = upstream.name == m_upstream.name && m_requests;
    m_upstream = upstream;
    m_where->setText(FundWords::distributorText(upstream));
    m_request->setVisible(upstream.offers.fundRequests);
    if (!same) {
        delete m_requests;
        m_requests = new CollectionModel(m_context.api(), UpstreamFundsApi::requestsPath(upstream.name),
                                         requestColumns(), kPageSize, this);
        m_table->setModel(m_requests);
        new ColumnWidths(m_table, {{0, QStringLiteral("2026-12-31 23:59:59")},
                                   {1, Money::formatIndian(Paise(99'999'900))},
                                   {2, FundWords::methodText(QStringLiteral("cash_deposit"))},
                                   {3, QStringLiteral("ABCD0123456789XY")}});
        m_credited.clear();
        m_requestsSeen = false;
        connect(m_requests, &CollectionModel::loaded, this, &DistributorPanel::onRequestsLoaded);
        connect(m_requests, &CollectionModel::failed, this, [this](const ApiError &error) {
            m_requestsError->setText(tr("The requests could not be loaded: %1").arg(error.description()));
            m_requestsError->show();
        });
        m_wallet.reset();
    }
    refresh();
}

void DistributorPanel::refresh()
{
    if (m_upstream.name.isEmpty() || !m_requests)
        return;
    loadWallet();
    m_requests->reload();
}

void DistributorPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void DistributorPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_follow.stop();
}

void DistributorPanel::openRequestDialog()
{
    if (m_upstream.name.isEmpty() || !m_upstream.offers.fundRequests)
        return;
    auto *dialog = new FundRequestDialog(m_context, m_upstream, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &FundRequestDialog::sent, this, &DistributorPanel::refresh);
    DialogFocus::openAndRestore(dialog);
}

void DistributorPanel::loadWallet()
{
    if (m_walletCall)
        m_walletCall->abort();
    m_walletCall = UpstreamFundsApi(m_context.api())
                       .wallet(m_upstream.name)
                       .then(this, [this](const Answer<UpstreamWallet> &answer) { showWallet(answer); });
}

void DistributorPanel::showWallet(const Answer<UpstreamWallet> &answer)
{
    if (!answer.ok()) {
        m_error->setText(tr("The figures could not be read from our server: %1").arg(answer.error->description()));
        m_error->show();
        return;
    }
    const UpstreamWallet &wallet = *answer.value;
    m_wallet = wallet;
    m_theirs->setText(figure(wallet.balance));
    m_ours->setText(Money::formatIndian(wallet.localBalance));
    const bool asked = wallet.error.isEmpty() && wallet.difference;
    m_checked->setText(!wallet.checkedAt.isValid() ? QString()
                       : asked                     ? tr("Checked at %1 IST").arg(IstTime::format(wallet.checkedAt))
                                                   : tr("Tried at %1 IST").arg(IstTime::format(wallet.checkedAt)));
    if (!asked) {
        m_difference->hide();
        m_explained->hide();
        m_unexplained->hide();
        m_error->setText(tr("The distributor could not be asked: %1. Sales go on as usual; the figures are asked "
                            "again later.")
                             .arg(wallet.error.isEmpty() ? tr("no figure in its answer") : wallet.error));
        m_error->show();
        return;
    }
    m_error->hide();
    m_difference->setText(FundWords::differenceText(*wallet.difference));
    m_difference->show();
    QStringList lines;
    for (const UpstreamWallet::Explanation &explanation : wallet.explained)
        lines.append(QStringLiteral("• ") + FundWords::explanationText(explanation));
    m_explained->setText(lines.join(QLatin1Char('\n')));
    m_explained->setVisible(!lines.isEmpty());
    const Paise unexplained = wallet.unexplained.value_or(0);
    m_unexplained->setText(FundWords::unexplainedText(unexplained));
    m_unexplained->setVisible(unexplained != 0);
}

void DistributorPanel::onRequestsLoaded()
{
    m_requestsError->hide();
    bool waiting = false;
    bool newlyCredited = false;
    for (int row = 0; row < m_requests->rowCount(); ++row) {
        const std::optional<UpstreamFundRequest> request = TypedColumn::item<UpstreamFundRequest>(*m_requests, row);
        if (!request)
            continue;
        if (request->creditedAt.isValid()) {
            if (!m_credited.contains(request->id) && m_requestsSeen)
                newlyCredited = true;
            m_credited.insert(request->id);
        } else if (!UpstreamFundRequest::isFinalState(request->state) || request->state == QLatin1String("approved")) {
            waiting = true;
        }
    }
    m_requestsSeen = true;
    if (waiting && isVisible())
        m_follow.start();
    else
        m_follow.stop();
    if (newlyCredited)
        emit credited();
}

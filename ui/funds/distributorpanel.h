#pragma once

#include "answer.h"
#include "entities/upstreaminfo.h"
#include "entities/upstreamwallet.h"

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

class CollectionModel;
class QLabel;
class QPushButton;
class QTableView;
class TerminalContext;

/// The shop's side of its distributor in Back office → Wallet (issue 30): the "Distributor" card — the distributor's
/// figure for this shop beside our live wallet, the difference in words and what explains it (sales not known there,
/// sales still pending, approved fund requests not yet credited here), what is left unexplained highlighted, when it
/// was checked, or why the distributor could not be asked (GET /api/v1/upstreams/{name}/wallet) — and below it
/// "Request top-up…" (FundRequestDialog; only when the upstream takes fund requests) and this shop's requests with
/// their state (GET /api/v1/upstreams/{name}/fund-requests). While a request is on its way or waiting, both are asked
/// again every few seconds, so an approval shows by itself; credited() then tells the wallet page.
class DistributorPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DistributorPanel)

public:
    explicit DistributorPanel(TerminalContext &context, QWidget *parent = nullptr);
    ~DistributorPanel() override;

    /// Shows `upstream` (a configured upstream that offers the balance) and asks for its figures and requests.
    void setUpstream(const UpstreamInfo &upstream);
    const QString &upstreamName() const { return m_upstream.name; }
    /// Asks for the figures and the requests again.
    void refresh();
    /// Opens the top-up request dialog (what "Request top-up…" does).
    void openRequestDialog();

    CollectionModel *requestsModel() const { return m_requests; }
    /// The last figures read (nullopt until the first answer).
    const std::optional<UpstreamWallet> &wallet() const { return m_wallet; }

    /// How often a waiting request is asked about again while the panel is shown (milliseconds).
    static constexpr int kFollowIntervalMs = 3000;

signals:
    /// A request was newly credited to our live wallet: the balance and the ledger moved.
    void credited();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void loadWallet();
    void showWallet(const Answer<UpstreamWallet> &answer);
    void onRequestsLoaded();

    TerminalContext &m_context;
    UpstreamInfo m_upstream;
    std::optional<UpstreamWallet> m_wallet;
    QPointer<ApiCall> m_walletCall;
    CollectionModel *m_requests = nullptr;
    QSet<qint64> m_credited;     ///< requests seen credited
    bool m_requestsSeen = false; ///< the list was read once since setUpstream()
    QTimer m_follow;

    QLabel *m_heading;
    QLabel *m_theirs;
    QLabel *m_ours;
    QLabel *m_difference;
    QLabel *m_explained;
    QLabel *m_unexplained;
    QLabel *m_where;
    QLabel *m_checked;
    QLabel *m_error;
    QPushButton *m_refresh;
    QPushButton *m_request;
    QLabel *m_requestsError;
    QTableView *m_table;
    QWidget *m_requestsBox;
};

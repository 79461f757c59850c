#pragma once

#include "apiclient.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class CollectionModel;
class DistributorLookup;
class DistributorPanel;
class FormErrors;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class TerminalContext;

namespace Ui {
class WalletPage;
}

/// Back office: the wallet of the terminal key's mode (issue 6, item 3) — the balance
/// (GET /api/v1/wallet), the ledger newest first, paged as it scrolls and filterable by kind and
/// text (GET /api/v1/wallet/ledger), a top-up (POST /api/v1/wallet/topups; free in test mode,
/// with a required note in live mode) and the shop's low-balance threshold (PUT /api/v1/shop
/// low_balance_threshold_rupees). Issue 30: when one of the server's upstreams offers the shop's balance (its
/// distributor), a "Distributor" tab beside the ledger shows that upstream's figure for us and our top-up requests to
/// it (DistributorPanel). Loads when shown. The layout is walletpage.ui; ledger rows are read as LedgerEntry,
/// so a row that does not decode says so in its cells.
class WalletPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WalletPage)

public:
    WalletPage(TerminalContext &context, QWidget *parent = nullptr);
    ~WalletPage() override;

    CollectionModel *ledgerModel() const { return m_ledger; }
    QSortFilterProxyModel *ledgerFilter() const { return m_filter; }
    /// The Distributor tab's content (shown as a tab only while an upstream offers the balance); null until one first
    /// does.
    DistributorPanel *distributorPanel() const { return m_distributor; }
    /// Reloads balance, threshold and ledger.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void loadBalance();
    void loadThreshold();
    /// Asks which upstream is the distributor and shows or hides the Distributor tab.
    void findDistributor();
    void applyLedgerFilter();
    void onTopupClicked();
    void sendTopup(qint64 rupees, const QString &note);
    void onSaveThresholdClicked();

    TerminalContext &m_context;
    CollectionModel *m_ledger;
    QSortFilterProxyModel *m_filter;
    QPointer<ApiCall> m_balanceCall;
    bool m_busy = false;

    std::unique_ptr<Ui::WalletPage> m_ui; ///< the widgets of walletpage.ui
    QTableView *m_table = nullptr;
    QLabel *m_topupNotice;
    QLabel *m_thresholdNotice;
    QLabel *m_ledgerError;
    DistributorLookup *m_lookup;
    DistributorPanel *m_distributor = nullptr; ///< made when an upstream first offers the balance
    std::unique_ptr<FormErrors> m_topupErrors;
    std::unique_ptr<FormErrors> m_thresholdErrors;
};

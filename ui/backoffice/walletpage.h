#pragma once

#include "apiclient.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class CollectionModel;
class FormErrors;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class TerminalContext;

/// Back office: the wallet of the terminal key's mode (issue 6, item 3) — the balance
/// (GET /api/v1/wallet), the ledger newest first, paged as it scrolls and filterable by kind and
/// text (GET /api/v1/wallet/ledger), a top-up (POST /api/v1/wallet/topups; free in test mode,
/// with a required note in live mode) and the shop's low-balance threshold (PUT /api/v1/shop
/// low_balance_threshold_rupees). Loads when shown.
class WalletPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WalletPage)

public:
    WalletPage(TerminalContext &context, QWidget *parent = nullptr);
    ~WalletPage() override;

    CollectionModel *ledgerModel() const { return m_ledger; }
    QSortFilterProxyModel *ledgerFilter() const { return m_filter; }
    /// Reloads balance, threshold and ledger.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void loadBalance();
    void loadThreshold();
    void applyLedgerFilter();
    void onTopupClicked();
    void sendTopup(qint64 rupees, const QString &note);
    void onSaveThresholdClicked();

    TerminalContext &m_context;
    CollectionModel *m_ledger;
    QSortFilterProxyModel *m_filter;
    QPointer<ApiCall> m_balanceCall;
    bool m_busy = false;

    QLabel *m_balance;
    QLabel *m_mode;
    QLineEdit *m_amount;
    QLineEdit *m_note;
    QPushButton *m_topup;
    QLabel *m_topupNotice;
    std::unique_ptr<FormErrors> m_topupErrors;
    QLineEdit *m_threshold;
    QPushButton *m_saveThreshold;
    QLabel *m_thresholdNotice;
    std::unique_ptr<FormErrors> m_thresholdErrors;
    QComboBox *m_kind;
    QLineEdit *m_search;
    QLabel *m_ledgerError;
    QTableView *m_table;
};

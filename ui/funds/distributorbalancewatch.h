#pragma once

#include "money.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <optional>

class ApiCall;
class DistributorLookup;
class ElidedLabel;
class TerminalContext;

/// The status bar's warning about the shop's float at its distributor (issue 30): "Distributor balance ₹… — below
/// ₹…" while the distributor's figure for this shop (GET /api/v1/upstreams/{name}/wallet, the first upstream that
/// offers the balance: DistributorLookup) is below the shop's low-balance threshold (GET /api/v1/shop; 0 turns it
/// off). Asks the server at most once per interval (a minute), however often refresh() is called. Shows nothing when
/// no upstream offers the balance or the distributor could not be asked: a warning only, never in a sale's way.
class DistributorBalanceWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DistributorBalanceWatch)

public:
    static constexpr int kDefaultIntervalMs = 60'000;

    /// `label` shows the warning (hidden while there is none; it gives way when the status bar is full). `intervalMs`:
    /// the least time between two questions.
    DistributorBalanceWatch(TerminalContext &context, ElidedLabel *label, QObject *parent = nullptr,
                            int intervalMs = kDefaultIntervalMs);

    /// Asks the server again when the last question is at least the interval old (or there was none).
    void refresh();
    /// The warning shown now; empty when none is.
    QString text() const;
    /// The distributor's last figure for us (nullopt: none known).
    std::optional<Paise> balance() const { return m_balance; }

private:
    void ask();
    void show();

    TerminalContext &m_context;
    ElidedLabel *m_label;
    DistributorLookup *m_lookup;
    QPointer<ApiCall> m_call;
    QElapsedTimer m_asked;
    int m_intervalMs;
    std::optional<Paise> m_balance;
};

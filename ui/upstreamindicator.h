#pragma once

#include "upstreamstatus.h"

#include <QObject>
#include <QPointer>

class ApiCall;
class ApiClient;
class QLabel;

/// The upstream's state in the status bar (issue 11): "Upstream online" or "Upstream unreachable
/// since 14:02" from GET /api/v1/upstream, amber while unreachable; beside it how many of the
/// shop's live sales need attention ("2 sales need attention", issue 26), for clerks and admins
/// alike. Shows nothing when no upstream is configured (and no sale needs attention), and asks
/// nothing with a TEST-mode key: test sales never go to the upstream.
class UpstreamIndicator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamIndicator)

public:
    /// `label` shows the state, `attentionLabel` the sales needing attention (each hidden while
    /// it has nothing to show).
    UpstreamIndicator(ApiClient &api, QLabel *label, QLabel *attentionLabel, QObject *parent = nullptr);

    /// Asks the server again (one call at a time).
    void refresh();
    /// The last state read (not configured until the first answer).
    const UpstreamStatus &status() const { return m_status; }

private:
    void show(const UpstreamStatus &status);

    ApiClient &m_api;
    QLabel *m_label;
    QLabel *m_attention;
    QPointer<ApiCall> m_call;
    UpstreamStatus m_status;
};

#pragma once

#include "upstreamstatus.h"

#include <QObject>
#include <QPointer>

class ApiCall;
class ApiClient;
class QLabel;

/// The upstream's state in the status bar (issue 11): "Upstream online" or "Upstream unreachable
/// since 14:02" from GET /api/v1/upstream, amber while unreachable. Shows nothing when no upstream
/// is configured, and asks nothing with a TEST-mode key: test sales never go to the upstream.
class UpstreamIndicator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamIndicator)

public:
    /// `label` shows the state (hidden while there is nothing to show).
    UpstreamIndicator(ApiClient &api, QLabel *label, QObject *parent = nullptr);

    /// Asks the server again (one call at a time).
    void refresh();
    /// The last state read (not configured until the first answer).
    const UpstreamStatus &status() const { return m_status; }

private:
    void show(const UpstreamStatus &status);

    ApiClient &m_api;
    QLabel *m_label;
    QPointer<ApiCall> m_call;
    UpstreamStatus m_status;
};

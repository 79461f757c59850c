#pragma once

#include "upstreamstatus.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class ApiCall;
class FormErrors;
class TerminalContext;

namespace Ui {
class UpstreamCard;
}

/// Back office → Settings → Upstream (issue 11, admin only): the upstream provider live sales
/// are sent to. Shows its state (online / unreachable since HH:MM IST / not configured) and the
/// URL the upstream must send its webhooks to (this server + /hooks/upstream); edits base URL,
/// key id, key secret, webhook password and webhook secret (PUT /api/v1/upstream); Clear (DELETE,
/// after confirming) and Check (POST /api/v1/upstream/check, its message shown as it comes).
/// Save replaces the whole setting: the server never shows the secrets back, so the key secret
/// (and the webhook password and secret, when used) are typed again on every save. The
/// server's errors appear under the field they name.
class UpstreamCard final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamCard)

public:
    explicit UpstreamCard(TerminalContext &context, QWidget *parent = nullptr);
    ~UpstreamCard() override;

    /// Reads the state again (GET /api/v1/upstream).
    void refresh();
    /// The state last read.
    const UpstreamStatus &status() const { return m_status; }
    /// The URL the upstream must send webhooks to (this server's address + the webhook path).
    QString webhookUrl() const;

signals:
    /// The setting changed on the server (saved or cleared).
    void changed();

private:
    void showStatus(const UpstreamStatus &status);
    void onSaveClicked();
    void onClearClicked();
    void onCheckClicked();
    void setBusy(bool busy);

    TerminalContext &m_context;
    UpstreamStatus m_status;
    QPointer<ApiCall> m_loadCall;
    std::unique_ptr<Ui::UpstreamCard> m_ui; ///< the form of upstreamcard.ui
    std::unique_ptr<FormErrors> m_errors;
};

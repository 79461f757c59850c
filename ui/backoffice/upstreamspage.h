#pragma once

#include "answer.h"
#include "entities/upstreaminfo.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class FormErrors;
class QLabel;
class QPushButton;
class QTableWidget;
class StatementsCard;
class TerminalContext;
class UpstreamDialog;

/// Back office → Settings → Upstreams (issue 26, "Several upstreams"; admin): the server's upstreams in the order
/// live sales try them (GET /api/v1/upstreams) — priority, name, kind ("promises the spec only — sends each sale
/// once" or RechargeDesk), what it sells, enabled, health and last contact, and the webhook path to give it — and, for
/// the one selected, its URL, its state in a sentence and the whole address of its webhooks. Add… and Edit… open
/// UpstreamDialog; Check probes it (POST …/check, its message shown as it comes); Remove… asks first (DELETE). Below,
/// its statements (StatementsCard). Changing anything needs a live admin, as the server says: in test mode the page
/// lists only and says so. Enter in the list edits, Delete removes.
class UpstreamsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamsPage)

public:
    /// The list's columns.
    enum Column
    {
        PriorityColumn,
        NameColumn,
        KindColumn,
        SellsColumn,
        EnabledColumn,
        HealthColumn,
        WebhookColumn,
        ColumnCount
    };

    explicit UpstreamsPage(TerminalContext &context, QWidget *parent = nullptr);
    ~UpstreamsPage() override;

    /// Reads the list again (one call at a time), keeping the selected upstream selected.
    void refresh();
    /// The upstreams last read, by priority.
    const QList<UpstreamInfo> &upstreams() const { return m_upstreams; }
    /// The upstream selected in the list; nullptr for none.
    const UpstreamInfo *selected() const;
    /// Selects the upstream `name` in the list (false when there is none).
    bool select(const QString &name);
    QTableWidget *table() const { return m_table; }
    StatementsCard *statements() const { return m_statements; }
    /// The whole address `info`'s upstream sends its webhooks to: this server's address + its webhook path.
    QString webhookUrl(const UpstreamInfo &info) const;

    /// "Promises the spec only — sends each sale once", "RechargeDesk", or "Not read yet".
    static QString kindText(const QString &kind);
    /// What it sells in words: "All services · all operators", "Mobile, DTH · AT, VI".
    static QString sellsText(const UpstreamInfo &info);
    /// Its health in a few words: "Online · last contact 14:05", "Unreachable since 14:02", "Not contacted yet".
    static QString healthText(const UpstreamInfo &info);

signals:
    /// An upstream was added, changed or removed on the server.
    void changed();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void showList(const QList<UpstreamInfo> &items);
    void showSelected();
    void onAddClicked();
    void onEditClicked();
    void onCheckClicked();
    void onRemoveClicked();
    void openDialog(const UpstreamInfo *editing);
    void updateButtons();
    /// The check's answer under the buttons: `ok` colours it (nullopt: a neutral "Checking…"); empty text hides it.
    void showCheckResult(const QString &text, std::optional<bool> ok);

    TerminalContext &m_context;
    QList<UpstreamInfo> m_upstreams;
    QString m_wanted; ///< the upstream to select once the list arrives
    QPointer<ApiCall> m_listCall;
    bool m_busy = false;
    bool m_live;

    QTableWidget *m_table;
    QLabel *m_liveOnly;
    QLabel *m_state;
    QLabel *m_kind;
    QLabel *m_webhook;
    QPushButton *m_add;
    QPushButton *m_edit;
    QPushButton *m_check;
    QPushButton *m_remove;
    QLabel *m_checkResult;
    QLabel *m_notice;
    std::unique_ptr<FormErrors> m_errors;
    StatementsCard *m_statements;
};

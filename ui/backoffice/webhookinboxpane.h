#pragma once

#include <QWidget>

#include <memory>

class CollectionModel;
class QTableView;
class TerminalContext;

namespace Ui {
class WebhookInboxPane;
}

/// What this server's built-in inbox received (WebhooksApi::inboxPath, test mode): each event once with how many
/// times it arrived, and the body of the chosen one.
class WebhookInboxPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookInboxPane)

public:
    explicit WebhookInboxPane(TerminalContext &context, QWidget *parent = nullptr);
    ~WebhookInboxPane() override;

    CollectionModel *model() const { return m_model; }
    /// Loads the first page (unless a page is on its way and `evenIfLoading` is false).
    void reload(bool evenIfLoading = true);

private:
    void onRowChanged();

    std::unique_ptr<Ui::WebhookInboxPane> m_ui; ///< the form of webhookinboxpane.ui
    CollectionModel *m_model;
    QTableView *m_table;
};

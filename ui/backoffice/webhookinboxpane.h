#pragma once

#include <QWidget>

class CollectionModel;
class QLabel;
class QPlainTextEdit;
class QTableView;
class TerminalContext;

/// What this server's built-in inbox received (WebhooksApi::inboxPath, test mode): each event once with how many
/// times it arrived, and the body of the chosen one.
class WebhookInboxPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookInboxPane)

public:
    explicit WebhookInboxPane(TerminalContext &context, QWidget *parent = nullptr);

    CollectionModel *model() const { return m_model; }
    /// Loads the first page (unless a page is on its way and `evenIfLoading` is false).
    void reload(bool evenIfLoading = true);

private:
    void onRowChanged();

    CollectionModel *m_model;
    QLabel *m_error;
    QTableView *m_table;
    QPlainTextEdit *m_body;
};

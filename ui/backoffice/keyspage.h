#pragma once

#include "keysapi.h"

#include <QWidget>

#include <memory>

class CollectionModel;
class FormErrors;
class QLabel;
class QTableView;
class TerminalContext;

namespace Ui {
class KeysPage;
}

/// Back office: the shop's API keys (issue 6, item 4) through KeysApi — the list with mode, scope and state,
/// creating a key (its secret is shown once in a SecretDialog with Copy) and revoking one after a confirmation (the
/// key of this terminal cannot revoke itself, 409 cannot_revoke_own_key, which is shown in words). Loads when shown.
class KeysPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeysPage)

public:
    KeysPage(TerminalContext &context, QWidget *parent = nullptr);
    ~KeysPage() override;

    CollectionModel *model() const { return m_model; }
    /// Reloads the list.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onCreateClicked();
    void onRevokeClicked();
    void revoke(const QString &keyId);
    void updateButtons();

    KeysApi m_api;
    std::unique_ptr<Ui::KeysPage> m_ui; ///< the form of keyspage.ui
    CollectionModel *m_model;
    QLabel *m_notice;
    QLabel *m_listError;
    std::unique_ptr<FormErrors> m_errors;
    QTableView *m_table;
};

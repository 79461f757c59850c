#pragma once

#include "usersapi.h"

#include <QWidget>

#include <memory>
#include <optional>

class CollectionModel;
class FormErrors;
class QLabel;
class QTableView;
class TerminalContext;

namespace Ui {
class UsersPage;
}

/// Back office: the shop's people and the audit log (issue 6, item 6) — the users, adding a clerk or admin with a
/// PIN, resetting a PIN, deactivating after a confirmation (the last active admin cannot go, 409 last_admin), all
/// through UsersApi, and the server's audit log of admin actions, newest first and paged as it scrolls. Loads when
/// shown.
class UsersPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsersPage)

public:
    UsersPage(TerminalContext &context, QWidget *parent = nullptr);
    ~UsersPage() override;

    CollectionModel *usersModel() const { return m_users; }
    CollectionModel *auditModel() const { return m_audit; }
    /// Reloads users and audit log.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onAddClicked();
    void onResetPinClicked();
    void onDeactivateClicked();
    void onCurrentUserChanged();
    /// The selected user's JSON, or an empty object.
    /// The user chosen in the list; nullopt for none (or an entry that does not decode).
    std::optional<User> selectedUser() const;

    UsersApi m_api;
    CollectionModel *m_users;
    CollectionModel *m_audit;
    std::unique_ptr<Ui::UsersPage> m_ui; ///< the form of userspage.ui
    QTableView *m_usersTable;
    QTableView *m_auditTable;
    QLabel *m_addNotice;
    std::unique_ptr<FormErrors> m_addErrors;
    QLabel *m_userNotice;
    std::unique_ptr<FormErrors> m_userErrors;
    QLabel *m_listError;
};

#pragma once

#include <QWidget>

#include <memory>

class CollectionModel;
class FormErrors;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class TerminalContext;

/// Back office: the shop's people and the audit log (issue 6, item 6) — the users (GET
/// /api/v1/users), adding a clerk or admin with a PIN (POST /api/v1/users), resetting a PIN
/// (POST /api/v1/users/{id}/reset-pin), deactivating after a confirmation (POST
/// /api/v1/users/{id}/deactivate; the last active admin cannot go, 409 last_admin) and the
/// server's audit log of admin actions, newest first and paged as it scrolls (GET
/// /api/v1/audit-log). Loads when shown.
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
    QJsonObject selectedUser() const;

    TerminalContext &m_context;
    CollectionModel *m_users;
    CollectionModel *m_audit;
    QTableView *m_usersTable;
    QTableView *m_auditTable;
    QLineEdit *m_name;
    QComboBox *m_role;
    QLineEdit *m_pin;
    QLineEdit *m_pinAgain;
    QPushButton *m_add;
    QLabel *m_addNotice;
    std::unique_ptr<FormErrors> m_addErrors;
    QLabel *m_selected;
    QLineEdit *m_newPin;
    QPushButton *m_resetPin;
    QPushButton *m_deactivate;
    QLabel *m_userNotice;
    std::unique_ptr<FormErrors> m_userErrors;
    QLabel *m_listError;
};

#pragma once

#include "entities/apikey.h"
#include "entities/shop.h"

#include <QDialog>
#include <QList>

class ApiClient;
class ApiError;
class QLabel;
class QPushButton;
class QTableWidget;

/// Back office → Shops → Keys… (issue 30): a shop's API keys (name, id, mode, made, revoked) and what an admin does
/// with them — New key… (a pos key, live or test), Rotate (a new key in place of the selected one, which stops working
/// now) and Revoke; a new secret is shown once with the connect lines (ShopKeyReveal). Table "shopKeysTable", buttons
/// "newShopKey", "rotateShopKey", "revokeShopKey".
class ShopKeysDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShopKeysDialog)

public:
    ShopKeysDialog(ApiClient &api, const Shop &shop, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    /// Loads the keys again.
    void refresh();
    /// The keys as last loaded.
    const QList<ApiKey> &keys() const { return m_keys; }

signals:
    /// A key was made, rotated or revoked.
    void keysChanged();

private:
    void showKeys(const QList<ApiKey> &keys);
    void updateButtons();
    const ApiKey *selected() const;
    void onNewKey();
    void onRotate();
    void onRevoke();
    void showError(const ApiError &error);

    ApiClient &m_api;
    Shop m_shop;
    QList<ApiKey> m_keys;
    QTableWidget *m_table;
    QLabel *m_error;
    QPushButton *m_new;
    QPushButton *m_rotate;
    QPushButton *m_revoke;
};

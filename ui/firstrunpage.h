#pragma once

#include "widgets/formerrors.h"

#include <QByteArray>
#include <QUrl>
#include <QWidget>

#include <memory>

class ApiClient;
class QComboBox;
class QLineEdit;
class QPushButton;

/// First run: creates the shop, its first admin (name and PIN) and the terminal's test key through the
/// embedded server's POST /api/v1/setup (SetupController), asynchronously: the GUI thread never waits for
/// the server or touches its database. The server accepts the call only with the setup token the terminal
/// gave it at start (ServerOptions::setupToken).
class FirstRunPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FirstRunPage)

public:
    /// `serverUrl`: the embedded server's root; `setupToken`: the token it was started with.
    FirstRunPage(const QUrl &serverUrl, QByteArray setupToken, QWidget *parent = nullptr);
    ~FirstRunPage() override;
    /// Shows why the setup failed; `field` is "shop_name", "shop_address", "home_circle", "admin_name", "admin_pin"
    /// or empty.
    void showError(const QString &field, const QString &message);

signals:
    /// The shop exists: the terminal's new key, the admin who signs in first, and the shop's home circle (the
    /// circle code the Plans screen opens on, kept in the terminal's settings).
    void shopCreated(const QString &keyId, const QString &keySecret, const QString &adminName,
                     const QString &circleCode);

private:
    void onCreateClicked();
    /// Sends the form to the server; shopCreated() or the server's error follows.
    void createShop();

    QLineEdit *m_shopName;
    QLineEdit *m_shopAddress;
    QComboBox *m_circle; ///< the shop's home telecom circle (issue 27)
    QLineEdit *m_adminName;
    QLineEdit *m_pin;
    QLineEdit *m_pinAgain;
    QPushButton *m_create;
    std::unique_ptr<FormErrors> m_errors;
    std::unique_ptr<ApiClient> m_api; ///< no key yet: the setup token is the credential
    QByteArray m_setupToken;
};

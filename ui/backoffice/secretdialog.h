#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

/// Shows a secret the server reveals only once (a new API key's secret, a webhook signing
/// secret) with a Copy button and a plain warning that it cannot be shown again. The secret is
/// in a read-only field named "secretValue"; Copy is "copySecret", Done is "secretDone".
class SecretDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretDialog)

public:
    /// `label` names the secret ("Key secret"); `identity` says whose it is (key id, URL).
    SecretDialog(const QString &title, const QString &identity, const QString &label, const QString &secret,
                 QWidget *parent = nullptr);

    QString secret() const;

private:
    void onCopyClicked();

    QLineEdit *m_secret;
    QPushButton *m_copy;
};

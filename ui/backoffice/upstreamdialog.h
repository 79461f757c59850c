#pragma once

#include "answer.h"
#include "entities/upstreaminfo.h"

#include <QDialog>
#include <QHash>
#include <QJsonObject>

#include <memory>

class FormErrors;
class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class TerminalContext;

/// Adds an upstream or edits one (issue 26, "Several upstreams"; Back office → Settings → Upstreams): its name (fixed
/// once made), base URL, credential — the API key credential an aggregator's dashboard shows (typed, pasted or read
/// from a file) or a RechargeDesk distributor's key id and secret —, the password (and optional signing secret) of its
/// webhooks, its priority, the services and operators it sells (none ticked: all) and whether it is enabled. Save
/// sends PUT /api/v1/upstreams/{name} (live admin) once; the server never shows a secret back, so the credential and
/// the webhook password are typed again on every save (an empty webhook password is asked about once: without it
/// the upstream's webhooks are refused). Errors stay in the dialog at the field the server names.
class UpstreamDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamDialog)

public:
    /// A new upstream (`editing` null; its priority starts at `suggestedPriority`) or the upstream `*editing`.
    UpstreamDialog(TerminalContext &context, const UpstreamInfo *editing, int suggestedPriority,
                   QWidget *parent = nullptr);
    ~UpstreamDialog() override;

    /// The services an upstream may sell, in the server's order ("mobile", "dth", "voucher", "aadhaar", "plans").
    static const QStringList &serviceCodes();
    /// A service in words ("Mobile", "DTH", …).
    static QString serviceName(const QString &code);

    /// The name the upstream is saved under (trimmed).
    QString name() const;
    /// The body Save sends: base_url, credential or key_id and key_secret, webhook_password and webhook_secret when
    /// typed, priority, services, operators (in the catalogue's order) and enabled.
    QJsonObject body() const;
    /// Puts the content of the file at `path` (trimmed; at most 2048 characters) into the credential field, as
    /// From file… does once a file is chosen; false (and the reason at the field) when it cannot be read or is
    /// not a credential.
    bool loadCredentialFile(const QString &path);
    /// True while the save is on its way.
    bool isBusy() const { return m_busy; }

public slots:
    void reject() override;

signals:
    /// The server saved the upstream: what it answered (its kind once its offers were read).
    void saved(const UpstreamInfo &info);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void onSaveClicked();
    void onFromFileClicked();
    void onSaved(const Answer<UpstreamInfo> &answer);
    /// Shows the credential field or the key id and secret, as the chosen kind needs.
    void showCredentialKind();
    void setBusy(bool busy);
    /// Sizes the dialog to its content, within the screen (the form scrolls when kiosk fonts make it taller).
    void fitToScreen();

    TerminalContext &m_context;
    bool m_editing;
    bool m_busy = false;
    bool m_noPasswordAsked = false; ///< an empty webhook password was pointed out once; the next Save sends it so

    QLineEdit *m_name;
    QLineEdit *m_baseUrl;
    QRadioButton *m_opaque;
    QRadioButton *m_keyPair;
    QLineEdit *m_credential;
    QPushButton *m_fromFile;
    QLineEdit *m_keyId;
    QLineEdit *m_keySecret;
    QLineEdit *m_webhookPassword;
    QLineEdit *m_webhookSecret;
    QSpinBox *m_priority;
    QHash<QString, QCheckBox *> m_services;             ///< by service code
    QList<std::pair<QString, QCheckBox *>> m_operators; ///< by operator code, in the catalogue's order
    QCheckBox *m_enabled;
    QPushButton *m_save;
    QPushButton *m_cancel;
    QFormLayout *m_form = nullptr;
    QList<QWidget *> m_credentialRows; ///< the credential's field row and error label
    QList<QWidget *> m_keyRows;        ///< the key id's and secret's field rows and error labels
    QWidget *m_content;
    std::unique_ptr<FormErrors> m_errors;
};

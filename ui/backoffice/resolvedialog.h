#pragma once

#include "answer.h"
#include "entities/transactionrecord.h"

#include <QDialog>

#include <memory>

class DigitsLineEdit;
class FormErrors;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class TerminalContext;
struct UserSignIn;

/// Ends a PENDING live sale by hand (issue 26) after a person checked it at the upstream: the
/// outcome — "Recharged (SUCCESS)" or "Not recharged — refund (FAILED)" —, a note (required, up to
/// 500 characters) and an admin's name and PIN. The PIN is checked as the sign-in page and the
/// kiosk's "Admin PIN needed" check it (POST /api/v1/users/sign-in; the person must be an admin);
/// the resolve (POST /api/v1/transactions/{id}/resolve, exactly {"status", "note"}) is then sent
/// under that admin's own session, so the server records who resolved it, and that session is
/// signed out again. Errors stay in the dialog: a missing choice, note or PIN at its field, a
/// refused PIN at the PIN, the server's answer (400 at its field, 403, 409 …) above the buttons.
/// The dialog cannot be closed while the server is asked.
class ResolveDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResolveDialog)

public:
    /// Asks about `record` (a PENDING live sale); the admin name starts as the signed-in person's.
    ResolveDialog(TerminalContext &context, const TransactionRecord &record, QWidget *parent = nullptr);
    ~ResolveDialog() override;

    /// The longest note the server takes (characters after trimming).
    static constexpr int kMaxNote = 500;

    /// True while the PIN check or the resolve is on its way.
    bool isBusy() const { return m_busy; }

public slots:
    void reject() override;

protected:
    void showEvent(QShowEvent *event) override;

signals:
    /// The server settled the sale: its record as the server answered it.
    void resolved(const TransactionRecord &record);

private:
    void onResolveClicked();
    void onSignedIn(const Answer<UserSignIn> &answer);
    void onResolved(const Answer<TransactionRecord> &answer);
    /// Ends the admin session made to confirm the PIN (fire and forget).
    void signOutConfirmation();
    void setBusy(bool busy);
    /// Grows the dialog to the height its wrapped messages need at its width (an error shown below a
    /// field must not squeeze the others).
    void fitToContents();

    TerminalContext &m_context;
    qint64 m_transactionId;
    bool m_busy = false;
    QString m_confirmationToken; ///< the session the admin's PIN opened, until it is signed out

    QRadioButton *m_success;
    QRadioButton *m_failed;
    QLineEdit *m_note;
    QLineEdit *m_name;
    DigitsLineEdit *m_pin;
    QPushButton *m_resolve;
    QPushButton *m_cancel;
    std::unique_ptr<FormErrors> m_errors;
};

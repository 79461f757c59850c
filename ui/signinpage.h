#pragma once

#include "terminalcontext.h"
#include "widgets/formerrors.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;

/// Sign-in by name and PIN (POST /api/v1/users/sign-in). Also the lock screen: after the idle
/// time the terminal comes back here with the name filled in.
class SignInPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SignInPage)

public:
    explicit SignInPage(TerminalContext &context, QWidget *parent = nullptr);
    /// Clears the PIN and focuses the right field; `lockedUser` pre-fills the name.
    void prepare(const QString &lockedUser);

signals:
    void signedIn(const SignedInUser &user);

private:
    void onSignInClicked();

    TerminalContext &m_context;
    QLabel *m_title;
    QLineEdit *m_name;
    QLineEdit *m_pin;
    QPushButton *m_signIn;
    std::unique_ptr<FormErrors> m_errors;
};

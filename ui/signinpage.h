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
    /// Why the page is shown: a sign-in (first start, the admin just created) or the lock of a session.
    enum class Reason
    {
        SignIn,
        Locked
    };
    /// Clears the PIN and focuses the right field; `name` pre-fills the name (the PIN is asked next). The title says
    /// "Locked" only for `Reason::Locked` (issue 27: not on the first sign-in after the shop was created).
    void prepare(const QString &name, Reason reason = Reason::SignIn);

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

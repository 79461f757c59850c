#include "signinpage.h"

#include "apiclient.h"
#include "usersapi.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

SignInPage::SignInPage(TerminalContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    Look::set(this, "page");
    m_title = new QLabel(tr("Sign in"), this);
    m_title->setObjectName(QStringLiteral("pageTitle"));
    Look::set(m_title, "pageTitle");
    m_title->setWordWrap(true); // the card has a fixed width: "Locked — enter your PIN…" (and Hindi) wraps
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("Your name"));
    m_pin = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, 8, this);
    m_pin->setEchoMode(QLineEdit::Password);
    m_pin->setPlaceholderText(tr("PIN"));
    m_signIn = new QPushButton(tr("Sign in"), this);
    Look::set(m_signIn, "action");
    m_signIn->setDefault(true);

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("generalError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);
    QLabel *nameError = FormErrors::makeLabel(this);
    QLabel *pinError = FormErrors::makeLabel(this);
    m_errors->addField(QStringLiteral("name"), nameError);
    m_errors->addField(QStringLiteral("pin"), pinError);

    auto *form = new QFormLayout;
    form->setVerticalSpacing(10);
    form->setHorizontalSpacing(16);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->addRow(tr("Name"), m_name);
    form->addRow(QString(), nameError);
    form->addRow(tr("PIN"), m_pin);
    form->addRow(QString(), pinError);

    auto *card = new QWidget(this);
    Look::set(card, "card");
    card->setFixedWidth(480);
    auto *cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(28, 24, 28, 28);
    cardLayout->setSpacing(14);
    cardLayout->addWidget(m_title);
    cardLayout->addWidget(general);
    cardLayout->addLayout(form);
    cardLayout->addWidget(m_signIn);
    // Centred by stretches, not by alignment: a vertical box asks an aligned item for its height at
    // the page's whole width, so the card's wrapped labels would get one line's height and be cut.
    auto *row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(card);
    row->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addStretch();
    layout->addLayout(row);
    layout->addStretch();

    m_name->setMinimumHeight(42);
    m_pin->setMinimumHeight(42);
    connect(m_signIn, &QPushButton::clicked, this, &SignInPage::onSignInClicked);
    connect(m_name, &QLineEdit::returnPressed, m_pin, qOverload<>(&QWidget::setFocus));
    connect(m_pin, &QLineEdit::returnPressed, this, &SignInPage::onSignInClicked);
}

void SignInPage::prepare(const QString &name, Reason reason)
{
    m_errors->clear();
    m_pin->clear();
    m_signIn->setEnabled(true);
    m_name->setText(name);
    m_title->setText(reason == Reason::Locked && !name.isEmpty() ? tr("Locked — enter your PIN to continue")
                                                                 : tr("Sign in"));
    (name.isEmpty() ? m_name : m_pin)->setFocus();
}

void SignInPage::onSignInClicked()
{
    if (!m_signIn->isEnabled())
        return; // an attempt is already on its way
    m_errors->clear();
    if (m_name->text().trimmed().isEmpty()) {
        m_errors->showAt(QStringLiteral("name"), tr("Enter your name."));
        return;
    }
    if (m_pin->text().size() < 4) {
        m_errors->showAt(QStringLiteral("pin"), tr("Enter your PIN (4 to 8 digits)."));
        return;
    }
    m_signIn->setEnabled(false);
    UsersApi(m_context.api())
        .signIn(m_name->text().trimmed(), m_pin->text())
        .then(this, [this](const Answer<UserSignIn> &answer) {
            m_signIn->setEnabled(true);
            m_pin->clear();
            if (!answer.ok()) {
                const ApiError &error = *answer.error;
                m_errors->showAt(error.httpStatus() == 0 ? QString() : QStringLiteral("pin"), error.description());
                m_pin->setFocus();
                return;
            }
            const UserSignIn &session = *answer.value;
            emit signedIn(SignedInUser{session.user.id, session.user.name, session.user.isAdmin(), session.token});
        });
}

#include "secretdialog.h"

#include "widgets/look.h"

#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

SecretDialog::SecretDialog(const QString &title, const QString &identity, const QString &label, const QString &secret,
                           QWidget *parent)
    : QDialog(parent), m_secret(new QLineEdit(secret, this)), m_copy(new QPushButton(tr("&Copy"), this))
{
    setObjectName(QStringLiteral("secretDialog"));
    setWindowTitle(title);
    setAttribute(Qt::WA_DeleteOnClose);
    setMinimumWidth(640);

    auto *warning = new QLabel(tr("Copy this secret now and keep it somewhere safe. You will not see it again: it is "
                                  "shown only this once. If it is lost, make a new one."),
                               this);
    warning->setObjectName(QStringLiteral("secretWarning"));
    Look::set(warning, "secretWarning");
    warning->setWordWrap(true);

    auto *identityLabel = new QLabel(identity, this);
    identityLabel->setObjectName(QStringLiteral("secretIdentity"));
    identityLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    identityLabel->setWordWrap(true);

    m_secret->setObjectName(QStringLiteral("secretValue"));
    Look::set(m_secret, "secretValue");
    m_secret->setReadOnly(true);
    m_secret->setMinimumWidth(420);
    m_copy->setObjectName(QStringLiteral("copySecret"));
    auto *done = new QPushButton(tr("I have saved it — &Done"), this);
    done->setObjectName(QStringLiteral("secretDone"));

    auto *secretRow = new QHBoxLayout;
    secretRow->addWidget(m_secret, 1);
    secretRow->addWidget(m_copy);
    auto *form = new QFormLayout;
    form->addRow(QString(), identityLabel);
    form->addRow(label, secretRow);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(done);
    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(14);
    layout->addWidget(warning);
    layout->addLayout(form);
    layout->addLayout(buttons);

    connect(m_copy, &QPushButton::clicked, this, &SecretDialog::onCopyClicked);
    connect(done, &QPushButton::clicked, this, &QDialog::accept);
    m_copy->setDefault(true);
    m_copy->setFocus();
}

QString SecretDialog::secret() const
{
    return m_secret->text();
}

void SecretDialog::onCopyClicked()
{
    QApplication::clipboard()->setText(m_secret->text());
    m_copy->setText(tr("Copied ✓"));
}

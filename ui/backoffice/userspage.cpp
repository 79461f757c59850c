#include "userspage.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "entities/auditentry.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "ui_userspage.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

namespace {

using BackOfficeUi::actorText;
using BackOfficeUi::card;

/// What is wrong with `pin` for a user of `role` ("admin" or "clerk"); empty when it will do.
/// Admins need 6 to 8 digits, clerks 4 to 8 (the server checks the same).
QString pinProblem(const QString &pin, const QString &role)
{
    if (role == QLatin1String("admin") && pin.size() < 6)
        return UsersPage::tr("An admin's PIN must be 6 to 8 digits.");
    if (pin.size() < 4)
        return UsersPage::tr("A clerk's PIN must be 4 to 8 digits.");
    return QString();
}

QString roleText(const QString &role)
{
    return role == QLatin1String("admin") ? UsersPage::tr("Admin") : UsersPage::tr("Clerk");
}

QString actionText(const QString &action)
{
    // Every action code the server writes to the audit log (backend/users, backend/api); a code
    // this table does not know yet shows as it is.
    static const struct
    {
        const char *code;
        const char *words;
    } kActions[] = {
        {"shop.setup", QT_TRANSLATE_NOOP("UsersPage", "Set up the shop")},
        {"shop.update", QT_TRANSLATE_NOOP("UsersPage", "Changed shop settings")},
        {"user.create", QT_TRANSLATE_NOOP("UsersPage", "Added a user")},
        {"user.reset_pin", QT_TRANSLATE_NOOP("UsersPage", "Reset a PIN")},
        {"user.deactivate", QT_TRANSLATE_NOOP("UsersPage", "Deactivated a user")},
        {"user.locked", QT_TRANSLATE_NOOP("UsersPage", "Locked after wrong PINs")},
        {"key.create", QT_TRANSLATE_NOOP("UsersPage", "Created an API key")},
        {"key.revoke", QT_TRANSLATE_NOOP("UsersPage", "Revoked an API key")},
        {"wallet.topup", QT_TRANSLATE_NOOP("UsersPage", "Topped up the wallet")},
    };
    for (const auto &known : kActions) {
        if (action == QLatin1String(known.code))
            return UsersPage::tr(known.words);
    }
    return action;
}

QList<CollectionColumn> userColumns()
{
    return {
        TypedColumn::make<User>(UsersPage::tr("Name"), [](const User &u) { return u.name; }),
        TypedColumn::make<User>(UsersPage::tr("Role"), [](const User &u) { return roleText(u.role); }),
        TypedColumn::make<User>(
            UsersPage::tr("State"),
            [](const User &u) { return u.active ? UsersPage::tr("Active") : UsersPage::tr("Deactivated"); }),
    };
}

QList<CollectionColumn> auditColumns()
{
    return {
        TypedColumn::make<AuditEntry>(UsersPage::tr("When (IST)"),
                                      [](const AuditEntry &e) { return IstTime::formatMs(e.createdAtMs); }),
        TypedColumn::make<AuditEntry>(UsersPage::tr("Who"), [](const AuditEntry &e) { return actorText(e.actor); }),
        TypedColumn::make<AuditEntry>(UsersPage::tr("What"), [](const AuditEntry &e) { return actionText(e.action); }),
        TypedColumn::make<AuditEntry>(UsersPage::tr("Details"), [](const AuditEntry &e) { return e.detail; }),
    };
}

} // namespace

UsersPage::UsersPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_api(context.api()),
      m_users(new CollectionModel(context.api(), UsersApi::listPath(), userColumns(), 0, this)),
      m_audit(new CollectionModel(context.api(), UsersApi::auditLogPath(), auditColumns(), 100, this)),
      m_ui(std::make_unique<Ui::UsersPage>()),
      // Made before the form, the tables open the focus chain as ever (setTabOrder moves its second widget only).
      m_usersTable(BackOfficeUi::table(m_users, QStringLiteral("usersTable"), this)),
      m_auditTable(BackOfficeUi::table(m_audit, QStringLiteral("auditTable"), this)),
      m_addNotice(BackOfficeUi::notice(this)), m_userNotice(BackOfficeUi::notice(this)),
      m_listError(BackOfficeUi::generalError(this))
{
    m_ui->setupUi(this);
    QLabel *addGeneral = BackOfficeUi::generalError(m_ui->addCard);
    QLabel *userGeneral = BackOfficeUi::generalError(m_ui->userCard);
    userGeneral->setObjectName(QStringLiteral("userActionError"));
    m_addErrors = std::make_unique<FormErrors>(addGeneral);
    m_userErrors = std::make_unique<FormErrors>(userGeneral);
    m_listError->setObjectName(QStringLiteral("usersError"));
    m_addNotice->setObjectName(QStringLiteral("addNotice"));
    m_userNotice->setObjectName(QStringLiteral("userNotice"));
    for (QLabel *fieldError : {m_ui->nameError, m_ui->roleError, m_ui->pinError, m_ui->newPinError})
        fieldError->setObjectName(QStringLiteral("fieldError")); // the test handle of FormErrors (its look: addField)
    m_addErrors->addField(QStringLiteral("name"), m_ui->nameError);
    m_addErrors->addField(QStringLiteral("role"), m_ui->roleError);
    m_addErrors->addField(QStringLiteral("pin"), m_ui->pinError);
    m_userErrors->addField(QStringLiteral("pin"), m_ui->newPinError);

    // The back office's shared pieces go into the form's boxes: headings first, banners and notices last.
    m_ui->usersLayout->addWidget(BackOfficeUi::heading(tr("People who can sign in"), m_ui->usersBox));
    m_ui->usersLayout->addWidget(m_listError);
    m_ui->usersLayout->addWidget(m_usersTable, 1);
    m_ui->auditLayout->addWidget(BackOfficeUi::heading(tr("Audit log (newest first)"), m_ui->auditBox));
    m_ui->auditLayout->addWidget(m_auditTable, 1);
    m_usersTable->horizontalHeader()->resizeSection(0, 220);
    m_auditTable->horizontalHeader()->resizeSection(0, 170);
    m_auditTable->horizontalHeader()->resizeSection(1, 200);
    m_auditTable->horizontalHeader()->resizeSection(2, 170);
    for (QWidget *card : {m_ui->userCard, m_ui->addCard})
        BackOfficeUi::makeCard(card);
    m_ui->userLayout->insertWidget(0, BackOfficeUi::heading(tr("Selected person"), m_ui->userCard));
    m_ui->userLayout->addWidget(userGeneral);
    m_ui->userLayout->addWidget(m_userNotice);
    m_ui->addLayout->insertWidget(0, BackOfficeUi::heading(tr("Add a person"), m_ui->addCard));
    m_ui->addLayout->addWidget(addGeneral);
    m_ui->addLayout->addWidget(m_addNotice);
    m_ui->body->addWidget(BackOfficeUi::sideColumn(m_ui->side, 420, this)); // takes `side` out of the row

    m_ui->userRole->addItem(tr("Clerk: sells at the counter"), QStringLiteral("clerk"));
    m_ui->userRole->addItem(tr("Admin: also the back office"), QStringLiteral("admin"));
    BackOfficeUi::makePrimary(m_ui->addUser);

    setTabOrder(m_usersTable, m_ui->newPin); // the form orders newPin … addUser
    setTabOrder(m_ui->addUser, m_auditTable);

    connect(m_ui->userName, &QLineEdit::returnPressed, m_ui->userRole, qOverload<>(&QWidget::setFocus));
    connect(m_ui->userPin, &QLineEdit::returnPressed, m_ui->userPinAgain, qOverload<>(&QWidget::setFocus));
    connect(m_ui->userPinAgain, &QLineEdit::returnPressed, this, &UsersPage::onAddClicked);
    connect(m_ui->addUser, &QPushButton::clicked, this, &UsersPage::onAddClicked);
    connect(m_ui->newPin, &QLineEdit::returnPressed, this, &UsersPage::onResetPinClicked);
    connect(m_ui->resetPin, &QPushButton::clicked, this, &UsersPage::onResetPinClicked);
    connect(m_ui->deactivateUser, &QPushButton::clicked, this, &UsersPage::onDeactivateClicked);
    connect(m_usersTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &UsersPage::onCurrentUserChanged);
    connect(m_users, &CollectionModel::modelReset, this, &UsersPage::onCurrentUserChanged);
    connect(m_users, &CollectionModel::loaded, m_listError, &QWidget::hide);
    for (CollectionModel *model : {m_users, m_audit}) {
        connect(model, &CollectionModel::failed, this, [this](const ApiError &error) {
            m_listError->setText(tr("Could not load: %1").arg(error.description()));
            m_listError->show();
        });
    }
    onCurrentUserChanged();
}

UsersPage::~UsersPage() = default;

void UsersPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void UsersPage::refresh()
{
    m_users->reload();
    m_audit->reload();
}

std::optional<User> UsersPage::selectedUser() const
{
    return TypedColumn::item<User>(*m_users, m_usersTable->currentIndex().row());
}

void UsersPage::onCurrentUserChanged()
{
    const std::optional<User> user = selectedUser();
    const bool active = user && user->active;
    m_ui->selectedUser->setText(
        !user ? tr("Choose a person in the list to reset their PIN or deactivate them.")
              : tr("%1 — %2%3").arg(user->name, roleText(user->role), active ? QString() : tr(" (deactivated)")));
    m_ui->newPin->setEnabled(active);
    m_ui->resetPin->setEnabled(active);
    m_ui->deactivateUser->setEnabled(active);
}

void UsersPage::onAddClicked()
{
    if (!m_ui->addUser->isEnabled())
        return;
    m_addErrors->clear();
    BackOfficeUi::showNotice(m_addNotice, QString());
    const QString name = m_ui->userName->text().trimmed();
    if (name.isEmpty()) {
        m_addErrors->showAt(QStringLiteral("name"), tr("Enter the name this person signs in with."));
        m_ui->userName->setFocus();
        return;
    }
    if (const QString problem = pinProblem(m_ui->userPin->text(), m_ui->userRole->currentData().toString());
        !problem.isEmpty()) {
        m_addErrors->showAt(QStringLiteral("pin"), problem);
        m_ui->userPin->setFocus();
        return;
    }
    if (m_ui->userPin->text() != m_ui->userPinAgain->text()) {
        m_addErrors->showAt(QStringLiteral("pin"), tr("The two PINs differ. Type the same PIN twice."));
        m_ui->userPinAgain->clear();
        m_ui->userPinAgain->setFocus();
        return;
    }
    m_ui->addUser->setEnabled(false);
    m_api.create(name, m_ui->userRole->currentData().toString(), m_ui->userPin->text())
        .then(this, [this](const Answer<User> &answer) {
            m_ui->addUser->setEnabled(true);
            m_ui->userPin->clear();
            m_ui->userPinAgain->clear();
            if (!answer.ok()) {
                m_addErrors->show(*answer.error);
                (answer.error->field() == QLatin1String("pin") ? m_ui->userPin : m_ui->userName)->setFocus();
                return;
            }
            BackOfficeUi::showNotice(
                m_addNotice,
                tr("%1 can now sign in as %2.").arg(answer.value->name, roleText(answer.value->role).toLower()));
            m_ui->userName->clear();
            m_ui->userName->setFocus();
            refresh();
        });
}

void UsersPage::onResetPinClicked()
{
    const std::optional<User> user = selectedUser();
    if (!user || !m_ui->resetPin->isEnabled())
        return;
    m_userErrors->clear();
    BackOfficeUi::showNotice(m_userNotice, QString());
    if (const QString problem = pinProblem(m_ui->newPin->text(), user->role); !problem.isEmpty()) {
        m_userErrors->showAt(QStringLiteral("pin"), problem);
        m_ui->newPin->setFocus();
        return;
    }
    m_ui->resetPin->setEnabled(false);
    m_api.resetPin(user->id, m_ui->newPin->text()).then(this, [this](const Answer<User> &answer) {
        m_ui->newPin->clear();
        onCurrentUserChanged();
        if (!answer.ok()) {
            m_userErrors->show(*answer.error);
            return;
        }
        BackOfficeUi::showNotice(m_userNotice, tr("New PIN set for %1.").arg(answer.value->name));
        m_audit->reload();
    });
}

void UsersPage::onDeactivateClicked()
{
    const std::optional<User> user = selectedUser();
    if (!user || !m_ui->deactivateUser->isEnabled())
        return;
    const qint64 id = user->id;
    const QString name = user->name;
    BackOfficeUi::confirm(
        this, tr("Deactivate"),
        tr("Deactivate %1?\nThey can no longer sign in at any terminal. Their past sales stay in "
           "the history.")
            .arg(name),
        tr("Deactivate"), [this, id] {
            m_userErrors->clear();
            BackOfficeUi::showNotice(m_userNotice, QString());
            m_api.deactivate(id).then(this, [this](const Answer<User> &answer) {
                if (!answer.ok()) {
                    const ApiError &error = *answer.error;
                    m_userErrors->showAt(QString(), error.reason() == QLatin1String("last_admin")
                                                        ? tr("This is the last active admin. Add another admin "
                                                             "first, so someone can still open the back office.")
                                                        : error.description());
                    return;
                }
                BackOfficeUi::showNotice(m_userNotice, tr("%1 is deactivated.").arg(answer.value->name));
                refresh();
            });
        });
}

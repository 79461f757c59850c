#include "userspage.h"

#include "backofficeui.h"
#include "collectionmodel.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

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
        {UsersPage::tr("When (IST)"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "datetime"); }},
        {UsersPage::tr("Who"), [](const QJsonObject &i) { return actorText(BackOfficeUi::itemText(i, "actor")); }},
        {UsersPage::tr("What"), [](const QJsonObject &i) { return actionText(BackOfficeUi::itemText(i, "action")); }},
        {UsersPage::tr("Details"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "detail"); }},
    };
}

QLineEdit *pinEdit(QWidget *parent, const char *name)
{
    auto *edit = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, 8, parent);
    edit->setObjectName(QLatin1String(name));
    edit->setEchoMode(QLineEdit::Password);
    edit->setPlaceholderText(UsersPage::tr("clerk 4-8, admin 6-8 digits"));
    return edit;
}

} // namespace

UsersPage::UsersPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_api(context.api()),
      m_users(new CollectionModel(context.api(), UsersApi::listPath(), userColumns(), 0, this)),
      m_audit(new CollectionModel(context.api(), UsersApi::auditLogPath(), auditColumns(), 100, this)),
      m_usersTable(BackOfficeUi::table(m_users, QStringLiteral("usersTable"), this)),
      m_auditTable(BackOfficeUi::table(m_audit, QStringLiteral("auditTable"), this)), m_name(new QLineEdit(this)),
      m_role(new QComboBox(this)), m_pin(pinEdit(this, "userPin")), m_pinAgain(pinEdit(this, "userPinAgain")),
      m_add(new QPushButton(tr("&Add user"), this)), m_addNotice(BackOfficeUi::notice(this)),
      m_selected(new QLabel(this)), m_newPin(pinEdit(this, "newPin")),
      m_resetPin(new QPushButton(tr("Re&set PIN"), this)), m_deactivate(new QPushButton(tr("&Deactivate…"), this)),
      m_userNotice(BackOfficeUi::notice(this)), m_listError(BackOfficeUi::generalError(this))
{
    setObjectName(QStringLiteral("page"));
    QLabel *addGeneral = BackOfficeUi::generalError(this);
    QLabel *userGeneral = BackOfficeUi::generalError(this);
    userGeneral->setObjectName(QStringLiteral("userActionError"));
    m_addErrors = std::make_unique<FormErrors>(addGeneral);
    m_userErrors = std::make_unique<FormErrors>(userGeneral);
    m_listError->setObjectName(QStringLiteral("usersError"));

    m_name->setObjectName(QStringLiteral("userName"));
    m_name->setMaxLength(40);
    m_name->setPlaceholderText(tr("Name used to sign in"));
    m_role->setObjectName(QStringLiteral("userRole"));
    m_role->addItem(tr("Clerk: sells at the counter"), QStringLiteral("clerk"));
    m_role->addItem(tr("Admin: also the back office"), QStringLiteral("admin"));
    m_add->setObjectName(QStringLiteral("addUser"));
    BackOfficeUi::makePrimary(m_add);
    m_addNotice->setObjectName(QStringLiteral("addNotice"));
    QLabel *nameError = FormErrors::makeLabel(this);
    QLabel *roleError = FormErrors::makeLabel(this);
    QLabel *pinError = FormErrors::makeLabel(this);
    m_addErrors->addField(QStringLiteral("name"), nameError);
    m_addErrors->addField(QStringLiteral("role"), roleError);
    m_addErrors->addField(QStringLiteral("pin"), pinError);

    m_selected->setObjectName(QStringLiteral("selectedUser"));
    m_selected->setWordWrap(true);
    m_resetPin->setObjectName(QStringLiteral("resetPin"));
    m_deactivate->setObjectName(QStringLiteral("deactivateUser"));
    m_userNotice->setObjectName(QStringLiteral("userNotice"));
    QLabel *newPinError = FormErrors::makeLabel(this);
    m_userErrors->addField(QStringLiteral("pin"), newPinError);

    QWidget *addCard = card(this);
    auto *addForm = new QFormLayout;
    addForm->setVerticalSpacing(4);
    addForm->addRow(tr("Name"), m_name);
    addForm->addRow(QString(), nameError);
    addForm->addRow(tr("Role"), m_role);
    addForm->addRow(QString(), roleError);
    addForm->addRow(tr("PIN"), m_pin);
    addForm->addRow(tr("PIN again"), m_pinAgain);
    addForm->addRow(QString(), pinError);
    auto *addLayout = new QVBoxLayout(addCard);
    addLayout->setContentsMargins(16, 12, 16, 12);
    addLayout->addWidget(BackOfficeUi::heading(tr("Add a person"), addCard));
    addLayout->addLayout(addForm);
    addLayout->addWidget(m_add);
    addLayout->addWidget(addGeneral);
    addLayout->addWidget(m_addNotice);

    QWidget *userCard = card(this);
    auto *pinRow = new QHBoxLayout;
    pinRow->addWidget(m_newPin, 1);
    pinRow->addWidget(m_resetPin);
    auto *userLayout = new QVBoxLayout(userCard);
    userLayout->setContentsMargins(16, 12, 16, 12);
    userLayout->addWidget(BackOfficeUi::heading(tr("Selected person"), userCard));
    userLayout->addWidget(m_selected);
    userLayout->addWidget(new QLabel(tr("New PIN"), userCard));
    userLayout->addLayout(pinRow);
    userLayout->addWidget(newPinError);
    userLayout->addWidget(m_deactivate);
    userLayout->addWidget(userGeneral);
    userLayout->addWidget(m_userNotice);

    auto *side = new QVBoxLayout;
    side->setContentsMargins(0, 0, 0, 0);
    side->addWidget(userCard);
    side->addWidget(addCard);
    side->addStretch();
    auto *sideWidget = new QWidget(this);
    sideWidget->setLayout(side);

    auto *usersBox = new QWidget(this);
    auto *usersLayout = new QVBoxLayout(usersBox);
    usersLayout->setContentsMargins(0, 0, 0, 0);
    usersLayout->addWidget(BackOfficeUi::heading(tr("People who can sign in"), usersBox));
    usersLayout->addWidget(m_listError);
    usersLayout->addWidget(m_usersTable, 1);
    m_usersTable->horizontalHeader()->resizeSection(0, 220);
    auto *auditBox = new QWidget(this);
    auto *auditLayout = new QVBoxLayout(auditBox);
    auditLayout->setContentsMargins(0, 0, 0, 0);
    auditLayout->addWidget(BackOfficeUi::heading(tr("Audit log (newest first)"), auditBox));
    auditLayout->addWidget(m_auditTable, 1);
    m_auditTable->horizontalHeader()->resizeSection(0, 170);
    m_auditTable->horizontalHeader()->resizeSection(1, 200);
    m_auditTable->horizontalHeader()->resizeSection(2, 170);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(usersBox);
    splitter->addWidget(auditBox);
    splitter->setChildrenCollapsible(false);

    auto *body = new QHBoxLayout;
    body->setSpacing(16);
    body->addWidget(splitter, 1);
    body->addWidget(BackOfficeUi::sideColumn(sideWidget, 420, this));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::title(tr("Users"), this));
    layout->addLayout(body, 1);

    setTabOrder(m_usersTable, m_newPin);
    setTabOrder(m_newPin, m_resetPin);
    setTabOrder(m_resetPin, m_deactivate);
    setTabOrder(m_deactivate, m_name);
    setTabOrder(m_name, m_role);
    setTabOrder(m_role, m_pin);
    setTabOrder(m_pin, m_pinAgain);
    setTabOrder(m_pinAgain, m_add);
    setTabOrder(m_add, m_auditTable);

    connect(m_name, &QLineEdit::returnPressed, m_role, qOverload<>(&QWidget::setFocus));
    connect(m_pin, &QLineEdit::returnPressed, m_pinAgain, qOverload<>(&QWidget::setFocus));
    connect(m_pinAgain, &QLineEdit::returnPressed, this, &UsersPage::onAddClicked);
    connect(m_add, &QPushButton::clicked, this, &UsersPage::onAddClicked);
    connect(m_newPin, &QLineEdit::returnPressed, this, &UsersPage::onResetPinClicked);
    connect(m_resetPin, &QPushButton::clicked, this, &UsersPage::onResetPinClicked);
    connect(m_deactivate, &QPushButton::clicked, this, &UsersPage::onDeactivateClicked);
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
    m_selected->setText(
        !user ? tr("Choose a person in the list to reset their PIN or deactivate them.")
              : tr("%1 — %2%3").arg(user->name, roleText(user->role), active ? QString() : tr(" (deactivated)")));
    m_newPin->setEnabled(active);
    m_resetPin->setEnabled(active);
    m_deactivate->setEnabled(active);
}

void UsersPage::onAddClicked()
{
    if (!m_add->isEnabled())
        return;
    m_addErrors->clear();
    BackOfficeUi::showNotice(m_addNotice, QString());
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) {
        m_addErrors->showAt(QStringLiteral("name"), tr("Enter the name this person signs in with."));
        m_name->setFocus();
        return;
    }
    if (const QString problem = pinProblem(m_pin->text(), m_role->currentData().toString()); !problem.isEmpty()) {
        m_addErrors->showAt(QStringLiteral("pin"), problem);
        m_pin->setFocus();
        return;
    }
    if (m_pin->text() != m_pinAgain->text()) {
        m_addErrors->showAt(QStringLiteral("pin"), tr("The two PINs differ. Type the same PIN twice."));
        m_pinAgain->clear();
        m_pinAgain->setFocus();
        return;
    }
    m_add->setEnabled(false);
    m_api.create(name, m_role->currentData().toString(), m_pin->text()).then(this, [this](const Answer<User> &answer) {
        m_add->setEnabled(true);
        m_pin->clear();
        m_pinAgain->clear();
        if (!answer.ok()) {
            m_addErrors->show(*answer.error);
            (answer.error->field() == QLatin1String("pin") ? m_pin : m_name)->setFocus();
            return;
        }
        BackOfficeUi::showNotice(
            m_addNotice,
            tr("%1 can now sign in as %2.").arg(answer.value->name, roleText(answer.value->role).toLower()));
        m_name->clear();
        m_name->setFocus();
        refresh();
    });
}

void UsersPage::onResetPinClicked()
{
    const std::optional<User> user = selectedUser();
    if (!user || !m_resetPin->isEnabled())
        return;
    m_userErrors->clear();
    BackOfficeUi::showNotice(m_userNotice, QString());
    if (const QString problem = pinProblem(m_newPin->text(), user->role); !problem.isEmpty()) {
        m_userErrors->showAt(QStringLiteral("pin"), problem);
        m_newPin->setFocus();
        return;
    }
    m_resetPin->setEnabled(false);
    m_api.resetPin(user->id, m_newPin->text()).then(this, [this](const Answer<User> &answer) {
        m_newPin->clear();
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
    if (!user || !m_deactivate->isEnabled())
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

#include "keyspage.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "secretdialog.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace {

QList<CollectionColumn> keyColumns(const QString &ownKeyId)
{
    return {
        TypedColumn::make<ApiKey>(KeysPage::tr("Key id"),
                                  [ownKeyId](const ApiKey &k) {
                                      return k.keyId == ownKeyId ? KeysPage::tr("%1 (this terminal)").arg(k.keyId)
                                                                 : k.keyId;
                                  }),
        TypedColumn::make<ApiKey>(KeysPage::tr("Name"), [](const ApiKey &k) { return k.name; }),
        TypedColumn::make<ApiKey>(
            KeysPage::tr("Mode"),
            [](const ApiKey &k) { return k.isLive() ? KeysPage::tr("Live") : KeysPage::tr("Test"); }),
        TypedColumn::make<ApiKey>(
            KeysPage::tr("Scope"),
            [](const ApiKey &k) { return k.isAdmin() ? KeysPage::tr("Admin") : KeysPage::tr("Point of sale"); }),
        TypedColumn::make<ApiKey>(KeysPage::tr("Created (IST)"),
                                  [](const ApiKey &k) { return IstTime::format(k.createdAt); }),
        TypedColumn::make<ApiKey>(KeysPage::tr("State"),
                                  [](const ApiKey &k) {
                                      return k.revokedAt ? KeysPage::tr("Revoked %1").arg(IstTime::format(*k.revokedAt))
                                                         : KeysPage::tr("Active");
                                  }),
    };
}

} // namespace

KeysPage::KeysPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_api(context.api()),
      m_model(new CollectionModel(context.api(), KeysApi::listPath(), keyColumns(context.api().keyId()), 0, this)),
      m_name(new QLineEdit(this)), m_mode(new QComboBox(this)), m_scope(new QComboBox(this)),
      m_create(new QPushButton(tr("&Create key"), this)), m_revoke(new QPushButton(tr("&Revoke selected key…"), this)),
      m_notice(BackOfficeUi::notice(this)), m_listError(BackOfficeUi::generalError(this)), m_table(nullptr)
{
    setObjectName(QStringLiteral("page"));
    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("generalError"));
    m_errors = std::make_unique<FormErrors>(general);

    m_name->setObjectName(QStringLiteral("keyName"));
    m_name->setPlaceholderText(tr("e.g. Counter 2 tablet"));
    m_name->setMaxLength(80);
    m_mode->setObjectName(QStringLiteral("keyMode"));
    m_mode->addItem(tr("Test (sandbox)"), QStringLiteral("test"));
    m_mode->addItem(tr("Live (real recharges)"), QStringLiteral("live"));
    m_scope->setObjectName(QStringLiteral("keyScope"));
    m_scope->addItem(tr("Point of sale: sell and check status"), QStringLiteral("pos"));
    m_scope->addItem(tr("Admin: everything, including the back office"), QStringLiteral("admin"));
    // Long choices elide in the closed box (the list shows them whole), so they never widen the page.
    for (QComboBox *combo : {m_mode, m_scope}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(14);
    }
    m_create->setObjectName(QStringLiteral("createKey"));
    BackOfficeUi::makePrimary(m_create);
    m_revoke->setObjectName(QStringLiteral("revokeKey"));
    m_revoke->setEnabled(false);
    m_listError->setObjectName(QStringLiteral("keysError"));

    QLabel *nameError = FormErrors::makeLabel(this);
    QLabel *modeError = FormErrors::makeLabel(this);
    QLabel *scopeError = FormErrors::makeLabel(this);
    m_errors->addField(QStringLiteral("name"), nameError);
    m_errors->addField(QStringLiteral("mode"), modeError);
    m_errors->addField(QStringLiteral("scope"), scopeError);

    // The new-key form is one row above the list, so the list gets the page's full width.
    auto *form = new QGridLayout;
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(4);
    form->addWidget(new QLabel(tr("Name"), this), 0, 0);
    form->addWidget(new QLabel(tr("Mode"), this), 0, 1);
    form->addWidget(new QLabel(tr("Scope"), this), 0, 2);
    form->addWidget(m_name, 1, 0);
    form->addWidget(m_mode, 1, 1);
    form->addWidget(m_scope, 1, 2);
    form->addWidget(m_create, 1, 3);
    form->addWidget(nameError, 2, 0);
    form->addWidget(modeError, 2, 1);
    form->addWidget(scopeError, 2, 2);
    form->setColumnStretch(0, 3);
    form->setColumnStretch(1, 2);
    form->setColumnStretch(2, 3);
    auto *createCard = new QWidget(this);
    createCard->setObjectName(QStringLiteral("card"));
    createCard->setAttribute(Qt::WA_StyledBackground);
    auto *cardLayout = new QVBoxLayout(createCard);
    cardLayout->setContentsMargins(20, 12, 20, 12);
    cardLayout->addWidget(BackOfficeUi::heading(tr("New key"), createCard));
    cardLayout->addLayout(form);
    cardLayout->addWidget(general);
    cardLayout->addWidget(BackOfficeUi::hint(tr("The secret is shown once, right after the key is made."), createCard));

    m_table = BackOfficeUi::table(m_model, QStringLiteral("keysTable"), this);
    m_table->horizontalHeader()->resizeSection(0, 300);
    m_table->horizontalHeader()->resizeSection(1, 200);
    m_table->horizontalHeader()->resizeSection(2, 80);
    m_table->horizontalHeader()->resizeSection(3, 140);
    m_table->horizontalHeader()->resizeSection(4, 180);
    m_revoke->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_notice, 1);
    actions->addStretch();
    actions->addWidget(m_revoke);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::title(tr("API keys"), this));
    layout->addWidget(BackOfficeUi::hint(
        tr("A key lets a terminal or another program use this shop's API. Point-of-sale keys can sell; admin keys "
           "can also open the back office. Test keys use the sandbox and the test wallet."),
        this));
    layout->addWidget(createCard);
    layout->addWidget(m_listError);
    layout->addWidget(m_table, 1);
    layout->addLayout(actions);

    setTabOrder(m_name, m_mode);
    setTabOrder(m_mode, m_scope);
    setTabOrder(m_scope, m_create);
    setTabOrder(m_create, m_table);
    setTabOrder(m_table, m_revoke);

    connect(m_name, &QLineEdit::returnPressed, this, &KeysPage::onCreateClicked);
    connect(m_create, &QPushButton::clicked, this, &KeysPage::onCreateClicked);
    connect(m_revoke, &QPushButton::clicked, this, &KeysPage::onRevokeClicked);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &KeysPage::updateButtons);
    connect(m_model, &CollectionModel::modelReset, this, &KeysPage::updateButtons);
    connect(m_model, &CollectionModel::loaded, m_listError, &QWidget::hide);
    connect(m_model, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_listError->setText(tr("The keys could not be loaded: %1").arg(error.description()));
        m_listError->show();
    });
}

KeysPage::~KeysPage() = default;

void KeysPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void KeysPage::refresh()
{
    m_model->reload();
}

void KeysPage::updateButtons()
{
    const std::optional<ApiKey> key = TypedColumn::item<ApiKey>(*m_model, m_table->currentIndex().row());
    m_revoke->setEnabled(key && !key->isRevoked());
}

void KeysPage::onCreateClicked()
{
    if (!m_create->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) {
        m_errors->showAt(QStringLiteral("name"), tr("Give the key a name that says where it is used."));
        m_name->setFocus();
        return;
    }
    m_create->setEnabled(false);
    const TypedCall<ApiKey> call =
        m_api.create(name, m_mode->currentData().toString(), m_scope->currentData().toString());
    call.then(this, [this](const Answer<ApiKey> &answer) {
        m_create->setEnabled(true);
        if (!answer.ok()) {
            const ApiError &error = *answer.error;
            if (error.reason() == QLatin1String("live_key_needs_live_admin"))
                m_errors->showAt(QStringLiteral("mode"),
                                 tr("This terminal uses a test key, so it can only make test keys. Live keys are "
                                    "made from a live admin key."));
            else
                m_errors->show(error);
            return;
        }
        const ApiKey &key = *answer.value;
        const QString keyId = key.keyId;
        auto *dialog = new SecretDialog(tr("New API key"), tr("Key id: %1\nName: %2").arg(keyId, key.name),
                                        tr("Key secret"), key.secret.value_or(QString()), this);
        dialog->open();
        BackOfficeUi::showNotice(m_notice, tr("Key %1 created.").arg(keyId));
        m_name->clear();
        refresh();
    });
}

void KeysPage::onRevokeClicked()
{
    const std::optional<ApiKey> key = TypedColumn::item<ApiKey>(*m_model, m_table->currentIndex().row());
    if (!key)
        return;
    const QString keyId = key->keyId;
    BackOfficeUi::confirm(this, tr("Revoke key"),
                          tr("Revoke %1 (%2)?\nAnything using this key stops working at once. This cannot be undone.")
                              .arg(keyId, key->name),
                          tr("Revoke"), [this, keyId] { revoke(keyId); });
}

void KeysPage::revoke(const QString &keyId)
{
    m_errors->clear();
    m_listError->hide();
    BackOfficeUi::showNotice(m_notice, QString());
    m_api.revoke(keyId).then(this, [this, keyId](const Answer<ApiKey> &answer) {
        if (!answer.ok()) {
            const ApiError &error = *answer.error;
            m_listError->setText(error.reason() == QLatin1String("cannot_revoke_own_key")
                                     ? tr("%1 is the key this terminal signs in with, so it cannot revoke itself. "
                                          "Revoke it from another admin terminal, or with "
                                          "\"rechargedesk keys revoke\" on the server.")
                                           .arg(keyId)
                                     : error.description());
            m_listError->show();
            return;
        }
        BackOfficeUi::showNotice(m_notice, tr("Key %1 revoked.").arg(keyId));
        refresh();
    });
}

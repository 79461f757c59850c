#include "keyspage.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "secretdialog.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "ui_keyspage.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

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
    : QWidget(parent), m_api(context.api()), m_ui(std::make_unique<Ui::KeysPage>()),
      m_model(new CollectionModel(context.api(), KeysApi::listPath(), keyColumns(context.api().keyId()), 0, this)),
      m_notice(BackOfficeUi::notice(this)), m_listError(BackOfficeUi::generalError(this)),
      m_table(BackOfficeUi::table(m_model, QStringLiteral("keysTable"), this))
{
    m_ui->setupUi(this);
    Look::set(this, "page");
    m_ui->card->setAttribute(Qt::WA_StyledBackground);
    m_ui->cardLayout->insertWidget(0, BackOfficeUi::heading(tr("New key"), m_ui->card));
    QLabel *general = BackOfficeUi::generalError(m_ui->card);
    m_ui->cardLayout->insertWidget(2, general);
    m_errors = std::make_unique<FormErrors>(general);
    const std::pair<const char *, QLabel *> fieldErrors[] = {
        {"name", m_ui->nameError}, {"mode", m_ui->modeError}, {"scope", m_ui->scopeError}};
    for (const auto &[field, label] : fieldErrors) {
        label->setObjectName(QStringLiteral("fieldError")); // the test handle of FormErrors (its look: addField)
        m_errors->addField(QLatin1String(field), label);
    }
    // The new-key form is one row above the list, so the list gets the page's full width.
    m_ui->form->setColumnStretch(0, 3);
    m_ui->form->setColumnStretch(1, 2);
    m_ui->form->setColumnStretch(2, 3);
    m_ui->keyMode->addItem(tr("Test (sandbox)"), QStringLiteral("test"));
    m_ui->keyMode->addItem(tr("Live (real recharges)"), QStringLiteral("live"));
    m_ui->keyScope->addItem(tr("Point of sale: sell and check status"), QStringLiteral("pos"));
    m_ui->keyScope->addItem(tr("Admin: everything, including the back office"), QStringLiteral("admin"));
    BackOfficeUi::makePrimary(m_ui->createKey);

    m_listError->setObjectName(QStringLiteral("keysError"));
    int section = 0;
    for (const int width : {300, 200, 80, 140, 180})
        m_table->horizontalHeader()->resizeSection(section++, width);
    const int listAt = m_ui->pageLayout->indexOf(m_ui->card) + 1;
    m_ui->pageLayout->insertWidget(listAt, m_listError);
    m_ui->pageLayout->insertWidget(listAt + 1, m_table, 1);
    m_ui->actions->insertWidget(0, m_notice, 1);
    setTabOrder(m_ui->createKey, m_table);
    setTabOrder(m_table, m_ui->revokeKey);

    connect(m_ui->keyName, &QLineEdit::returnPressed, this, &KeysPage::onCreateClicked);
    connect(m_ui->createKey, &QPushButton::clicked, this, &KeysPage::onCreateClicked);
    connect(m_ui->revokeKey, &QPushButton::clicked, this, &KeysPage::onRevokeClicked);
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
    m_ui->revokeKey->setEnabled(key && !key->isRevoked());
}

void KeysPage::onCreateClicked()
{
    if (!m_ui->createKey->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString name = m_ui->keyName->text().trimmed();
    if (name.isEmpty()) {
        m_errors->showAt(QStringLiteral("name"), tr("Give the key a name that says where it is used."));
        m_ui->keyName->setFocus();
        return;
    }
    m_ui->createKey->setEnabled(false);
    const TypedCall<ApiKey> call =
        m_api.create(name, m_ui->keyMode->currentData().toString(), m_ui->keyScope->currentData().toString());
    call.then(this, [this](const Answer<ApiKey> &answer) {
        m_ui->createKey->setEnabled(true);
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
        m_ui->keyName->clear();
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

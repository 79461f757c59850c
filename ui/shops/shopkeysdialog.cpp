#include "shopkeysdialog.h"

#include "backoffice/backofficeui.h"
#include "clock.h"
#include "shopformdialog.h"
#include "shopkeyreveal.h"
#include "shopsapi.h"
#include "widgets/formerrors.h"
#include "widgets/readonlytable.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

constexpr int kMaxKeyName = 60;

QString when(const QDateTime &at)
{
    return IstTime::toIst(at).toString(QStringLiteral("dd MMM yyyy HH:mm"));
}

/// Asks a new key's name and mode, then makes it (POST /api/v1/shops/{id}/keys).
class NewShopKeyDialog final : public ShopFormDialog
{
public:
    NewShopKeyDialog(ApiClient &api, const Shop &shop, std::function<void(const IssuedShopKey &)> made, QWidget *parent)
        : ShopFormDialog(QStringLiteral("newShopKeyDialog"), ShopKeysDialog::tr("New key for %1").arg(shop.name),
                         QString(), ShopKeysDialog::tr("&Make key"), parent),
          m_api(api), m_shopId(shop.id), m_made(std::move(made)), m_name(new QLineEdit(this)),
          m_mode(new QComboBox(this))
    {
        m_name->setObjectName(QStringLiteral("shopKeyName"));
        m_name->setMaxLength(kMaxKeyName);
        m_name->setText(ShopKeysDialog::tr("%1 counter").arg(shop.name).left(kMaxKeyName));
        m_name->selectAll();
        m_mode->setObjectName(QStringLiteral("shopKeyMode"));
        m_mode->addItem(ShopKeysDialog::tr("Live — real recharges"), QStringLiteral("live"));
        m_mode->addItem(ShopKeysDialog::tr("Test — the sandbox"), QStringLiteral("test"));
        addRow(ShopKeysDialog::tr("&Name"), m_name, QStringLiteral("name"));
        addRow(ShopKeysDialog::tr("M&ode"), m_mode, QStringLiteral("mode"));
        m_name->setFocus();
    }

protected:
    void submit() override
    {
        errors().clear();
        if (m_name->text().trimmed().isEmpty())
            errors().showAt(QStringLiteral("name"), ShopKeysDialog::tr("Name the key, e.g. the counter it is for."),
                            m_name);
        if (!focusFirstProblem())
            return;
        setBusy(true);
        ShopsApi(m_api)
            .createKey(m_shopId, m_name->text().trimmed(), m_mode->currentData().toString())
            .then(this, [this](const Answer<IssuedShopKey> &answer) {
                if (!answer.ok()) {
                    showRefusal(*answer.error);
                    return;
                }
                setBusy(false);
                m_made(*answer.value);
                accept();
            });
    }

private:
    ApiClient &m_api;
    qint64 m_shopId;
    std::function<void(const IssuedShopKey &)> m_made;
    QLineEdit *m_name;
    QComboBox *m_mode;
};

} // namespace

ShopKeysDialog::ShopKeysDialog(ApiClient &api, const Shop &shop, QWidget *parent)
    : QDialog(parent), m_api(api), m_shop(shop),
      m_table(makeReadOnlyTable(this, "shopKeysTable",
                                {tr("Name"), tr("Key id"), tr("Mode"), tr("Made (IST)"), tr("State")})),
      m_error(BackOfficeUi::generalError(this)), m_new(new QPushButton(tr("&New key…"), this)),
      m_rotate(new QPushButton(tr("&Rotate…"), this)), m_revoke(new QPushButton(tr("Re&voke…"), this))
{
    setObjectName(QStringLiteral("shopKeysDialog"));
    setWindowTitle(tr("Keys of %1").arg(shop.name));
    m_error->setObjectName(QStringLiteral("shopKeysError"));
    m_new->setObjectName(QStringLiteral("newShopKey"));
    m_rotate->setObjectName(QStringLiteral("rotateShopKey"));
    m_revoke->setObjectName(QStringLiteral("revokeShopKey"));
    auto *close = new QPushButton(tr("&Close"), this);
    for (QPushButton *button : {m_new, m_rotate, m_revoke, close})
        button->setAutoDefault(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_new);
    buttons->addWidget(m_rotate);
    buttons->addWidget(m_revoke);
    buttons->addStretch();
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::hint(
        tr("The keys %1's RechargeDesk uses to reach this server. Rotating makes a new key and stops the old one at "
           "once: give the shop the new secret first.")
            .arg(shop.name),
        this));
    layout->addWidget(m_table, 1);
    layout->addWidget(m_error);
    layout->addLayout(buttons);
    resize(820, 420);

    connect(m_new, &QPushButton::clicked, this, &ShopKeysDialog::onNewKey);
    connect(m_rotate, &QPushButton::clicked, this, &ShopKeysDialog::onRotate);
    connect(m_revoke, &QPushButton::clicked, this, &ShopKeysDialog::onRevoke);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    connect(m_table, &QTableWidget::currentCellChanged, this, &ShopKeysDialog::updateButtons);
    updateButtons();
    refresh();
}

void ShopKeysDialog::refresh()
{
    ShopsApi(m_api).keys(m_shop.id).then(this, [this](const Answer<Collection<ApiKey>> &answer) {
        if (!answer.ok()) {
            showError(*answer.error);
            return;
        }
        m_error->hide();
        showKeys(answer.value->items);
    });
}

void ShopKeysDialog::showKeys(const QList<ApiKey> &keys)
{
    m_keys = keys;
    m_table->setRowCount(int(keys.size()));
    for (int row = 0; row < keys.size(); ++row) {
        const ApiKey &key = keys.at(row);
        const QStringList cells{key.name, key.keyId, key.isLive() ? tr("Live") : tr("Test"), when(key.createdAt),
                                key.isRevoked() ? tr("Revoked %1").arg(when(*key.revokedAt)) : tr("Works")};
        for (int column = 0; column < cells.size(); ++column)
            m_table->setItem(row, column, new QTableWidgetItem(cells.at(column)));
    }
    // The first working key is selected, so Rotate and Revoke work from the keyboard at once.
    for (int row = 0; row < keys.size(); ++row) {
        if (!keys.at(row).isRevoked()) {
            m_table->setCurrentCell(row, 0);
            break;
        }
    }
    updateButtons();
}

const ApiKey *ShopKeysDialog::selected() const
{
    const int row = m_table->currentRow();
    return row >= 0 && row < m_keys.size() ? &m_keys.at(row) : nullptr;
}

void ShopKeysDialog::updateButtons()
{
    const ApiKey *key = selected();
    const bool working = key && !key->isRevoked();
    m_rotate->setEnabled(working);
    m_revoke->setEnabled(working);
}

void ShopKeysDialog::showError(const ApiError &error)
{
    m_error->setText(error.description());
    m_error->show();
}

void ShopKeysDialog::onNewKey()
{
    auto *dialog = new NewShopKeyDialog(
        m_api, m_shop,
        [this](const IssuedShopKey &key) {
            ShopKeyReveal::open(this, m_shop.name, key);
            refresh();
            emit keysChanged();
        },
        this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void ShopKeysDialog::onRotate()
{
    const ApiKey *key = selected();
    if (!key || key->isRevoked())
        return;
    const QString keyId = key->keyId;
    BackOfficeUi::confirm(
        this, tr("Rotate key"),
        tr("Make a new key for %1 in place of %2? The old key stops working at once.").arg(m_shop.name, keyId),
        tr("&Rotate"), [this, keyId] {
            ShopsApi(m_api).rotateKey(m_shop.id, keyId).then(this, [this](const Answer<IssuedShopKey> &answer) {
                if (!answer.ok()) {
                    showError(*answer.error);
                    return;
                }
                ShopKeyReveal::open(this, m_shop.name, *answer.value);
                refresh();
                emit keysChanged();
            });
        });
}

void ShopKeysDialog::onRevoke()
{
    const ApiKey *key = selected();
    if (!key || key->isRevoked())
        return;
    const QString keyId = key->keyId;
    BackOfficeUi::confirm(
        this, tr("Revoke key"),
        tr("Revoke %1 of %2? Every call with it is refused from now on.").arg(keyId, m_shop.name), tr("Re&voke"),
        [this, keyId] {
            ShopsApi(m_api).revokeKey(m_shop.id, keyId).then(this, [this](const Answer<ApiKey> &answer) {
                if (!answer.ok()) {
                    showError(*answer.error);
                    return;
                }
                refresh();
                emit keysChanged();
            });
        });
}

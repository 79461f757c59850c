#include "shopdetailpane.h"

#include "apiclient.h"
#include "backoffice/backofficeui.h"
#include "creditlimitdialog.h"
#include "marginsdialog.h"
#include "operatorcatalog.h"
#include "reasondialog.h"
#include "shopkeysdialog.h"
#include "shoplistmodel.h"
#include "shopsapi.h"
#include "statementdialog.h"
#include "terminalcontext.h"
#include "topupdialog.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

constexpr int kMaxSuspendReason = 200;

} // namespace

ShopDetailPane::ShopDetailPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_name(BackOfficeUi::heading(QString(), this)), m_state(new QLabel(this)),
      m_error(BackOfficeUi::generalError(this)), m_topUp(new QPushButton(tr("&Top up…"), this)),
      m_limit(new QPushButton(tr("Credit &limit…"), this)), m_margins(new QPushButton(tr("&Margins…"), this)),
      m_suspend(new QPushButton(tr("S&uspend…"), this)), m_keys(new QPushButton(tr("&Keys…"), this)),
      m_statement(new QPushButton(tr("Stat&ement…"), this))
{
    setObjectName(QStringLiteral("shopDetail"));
    BackOfficeUi::makeCard(this);
    m_name->setObjectName(QStringLiteral("shopDetailName"));
    m_name->setWordWrap(true);
    m_state->setObjectName(QStringLiteral("shopState"));
    m_state->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("shopDetailError"));

    auto *money = new QGridLayout;
    m_balance = addFigure(money, 0, 0, tr("Balance"), QStringLiteral("shopBalance"));
    m_creditLimit = addFigure(money, 0, 1, tr("Credit limit"), QStringLiteral("shopLimit"));
    m_available = addFigure(money, 0, 2, tr("May still spend"), QStringLiteral("shopAvailable"));
    m_today = addFigure(money, 2, 0, tr("Sales today"), QStringLiteral("shopToday"));
    m_success = addFigure(money, 2, 1, tr("Success today"), QStringLiteral("shopSuccess"));
    m_lastContact = addFigure(money, 2, 2, tr("Last contact"), QStringLiteral("shopLastContact"));
    m_owner = addFigure(money, 4, 0, tr("Owner"), QStringLiteral("shopOwnerText"));
    m_mobile = addFigure(money, 4, 1, tr("Mobile"), QStringLiteral("shopMobileText"));
    m_circle = addFigure(money, 4, 2, tr("Circle"), QStringLiteral("shopCircleText"));
    m_gstin = addFigure(money, 6, 0, tr("GSTIN"), QStringLiteral("shopGstinText"));
    for (QLabel *value : {m_balance, m_creditLimit, m_available})
        Look::set(value, "strong");

    m_topUp->setObjectName(QStringLiteral("shopTopUp"));
    m_limit->setObjectName(QStringLiteral("shopCreditLimit"));
    m_margins->setObjectName(QStringLiteral("shopMargins"));
    m_suspend->setObjectName(QStringLiteral("shopSuspend"));
    m_keys->setObjectName(QStringLiteral("shopKeys"));
    m_statement->setObjectName(QStringLiteral("shopStatement"));
    BackOfficeUi::makePrimary(m_topUp);
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_topUp, 0, 0);
    buttons->addWidget(m_limit, 0, 1);
    buttons->addWidget(m_statement, 1, 0);
    buttons->addWidget(m_margins, 1, 1);
    buttons->addWidget(m_keys, 2, 0);
    buttons->addWidget(m_suspend, 2, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addWidget(m_name);
    layout->addWidget(m_state);
    layout->addLayout(money);
    layout->addWidget(m_error);
    layout->addStretch();
    layout->addLayout(buttons);

    connect(m_topUp, &QPushButton::clicked, this, &ShopDetailPane::onTopUp);
    connect(m_limit, &QPushButton::clicked, this, &ShopDetailPane::onCreditLimit);
    connect(m_margins, &QPushButton::clicked, this, &ShopDetailPane::onMargins);
    connect(m_suspend, &QPushButton::clicked, this, &ShopDetailPane::onSuspendOrResume);
    connect(m_keys, &QPushButton::clicked, this, &ShopDetailPane::onKeys);
    connect(m_statement, &QPushButton::clicked, this, &ShopDetailPane::onStatement);
    setShop(std::nullopt);
}

QLabel *ShopDetailPane::addFigure(QGridLayout *grid, int row, int column, const QString &caption, const QString &name)
{
    auto *captionLabel = new QLabel(caption, this);
    Look::set(captionLabel, "hint");
    captionLabel->setWordWrap(true);
    auto *value = new QLabel(this);
    value->setObjectName(name);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    grid->addWidget(captionLabel, row, column);
    grid->addWidget(value, row + 1, column);
    grid->setColumnStretch(column, 1);
    return value;
}

void ShopDetailPane::setShop(const std::optional<Shop> &shop)
{
    m_shop = shop;
    m_error->hide();
    for (QPushButton *button : {m_topUp, m_limit, m_margins, m_suspend, m_keys, m_statement})
        button->setEnabled(shop.has_value());
    if (!shop) {
        m_name->setText(tr("No shop selected"));
        m_state->clear();
        for (QLabel *value : {m_balance, m_creditLimit, m_available, m_today, m_success, m_lastContact, m_owner,
                              m_mobile, m_circle, m_gstin})
            value->clear();
        m_suspend->setText(tr("S&uspend…"));
        return;
    }
    m_name->setText(shop->name);
    if (shop->isSuspended()) {
        m_state->setText(shop->suspendedReason.isEmpty()
                             ? tr("SUSPENDED — its keys are refused.")
                             : tr("SUSPENDED — its keys are refused. Reason: %1").arg(shop->suspendedReason));
        Look::set(m_state, "warning");
        m_suspend->setText(tr("Res&ume"));
    } else {
        m_state->setText(tr("Active"));
        Look::set(m_state, "notice");
        m_suspend->setText(tr("S&uspend…"));
    }
    m_balance->setText(Money::formatIndian(shop->balance));
    Look::set(m_balance, shop->balance < 0 ? "fieldError" : "strong");
    m_creditLimit->setText(Money::formatIndian(shop->creditLimit));
    m_available->setText(Money::formatIndian(shop->available()));
    m_today->setText(ShopListModel::todayText(shop->today));
    m_success->setText(ShopListModel::successText(shop->today));
    m_lastContact->setText(ShopListModel::lastContactText(shop->lastContactAt));
    m_owner->setText(shop->owner.isEmpty() ? QStringLiteral("—") : shop->owner);
    m_mobile->setText(shop->mobile.isEmpty() ? QStringLiteral("—") : shop->mobile);
    const CircleInfo *circle = m_context.catalog().findCircle(shop->circleCode);
    m_circle->setText(circle ? circle->name : (shop->circleCode.isEmpty() ? QStringLiteral("—") : shop->circleCode));
    m_gstin->setText(shop->gstin.isEmpty() ? tr("none") : shop->gstin);
}

void ShopDetailPane::changed(const Shop &shop)
{
    setShop(shop);
    emit shopChanged(shop);
}

void ShopDetailPane::onTopUp()
{
    if (!m_shop)
        return;
    auto *dialog = new TopUpDialog(m_context.api(), *m_shop, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &TopUpDialog::toppedUp, this, &ShopDetailPane::changed);
    DialogFocus::openAndRestore(dialog);
}

void ShopDetailPane::onCreditLimit()
{
    if (!m_shop)
        return;
    auto *dialog = new CreditLimitDialog(m_context.api(), *m_shop, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CreditLimitDialog::limitSet, this, &ShopDetailPane::changed);
    DialogFocus::openAndRestore(dialog);
}

void ShopDetailPane::onMargins()
{
    if (!m_shop)
        return;
    auto *dialog = new MarginsDialog(m_context.api(), m_context.catalog(), *m_shop, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    DialogFocus::openAndRestore(dialog);
}

void ShopDetailPane::onSuspendOrResume()
{
    if (!m_shop)
        return;
    const Shop shop = *m_shop;
    if (shop.isSuspended()) {
        BackOfficeUi::confirm(this, tr("Resume %1").arg(shop.name),
                              tr("Let %1's keys work again? Its sales start at once.").arg(shop.name), tr("Res&ume"),
                              [this, shop] {
                                  ShopsApi(m_context.api()).resume(shop.id).then(this, [this](const Answer<Shop> &a) {
                                      if (!a.ok()) {
                                          m_error->setText(a.error->description());
                                          m_error->show();
                                          return;
                                      }
                                      changed(*a.value);
                                  });
                              });
        return;
    }
    auto *dialog = new ReasonDialog(
        tr("Suspend %1").arg(shop.name),
        tr("Every call of %1's keys is refused from now on, until you resume it. Its pending sales still settle, it "
           "can still see its sales and wallet and ask for a top-up.")
            .arg(shop.name),
        tr("&Suspend"), kMaxSuspendReason, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ReasonDialog::submitted, this, [this, dialog, id = shop.id](const QString &reason) {
        ShopsApi(m_context.api()).suspend(id, reason).then(dialog, [this, dialog](const Answer<Shop> &answer) {
            if (!answer.ok()) {
                dialog->showError(*answer.error);
                return;
            }
            dialog->setBusy(false);
            dialog->accept();
            changed(*answer.value);
        });
    });
    DialogFocus::openAndRestore(dialog);
}

void ShopDetailPane::onKeys()
{
    if (!m_shop)
        return;
    auto *dialog = new ShopKeysDialog(m_context.api(), *m_shop, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    DialogFocus::openAndRestore(dialog);
}

void ShopDetailPane::onStatement()
{
    if (!m_shop)
        return;
    auto *dialog = new StatementDialog(m_context.api(), m_context.catalog(), m_context.clock(), m_context.settings(),
                                       *m_shop, m_context.shopName(), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    DialogFocus::openAndRestore(dialog);
}

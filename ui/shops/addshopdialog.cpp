#include "addshopdialog.h"

#include "operatorcatalog.h"
#include "validators.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QLineEdit>

namespace {

constexpr int kMinName = 2;
constexpr int kMaxName = 60;
constexpr int kMaxOwner = 80;
constexpr int kGstinLength = 15;

} // namespace

AddShopDialog::AddShopDialog(ApiClient &api, const OperatorCatalog &catalog, QWidget *parent)
    : ShopFormDialog(QStringLiteral("addShopDialog"), tr("Add a shop"),
                     tr("The shop gets a live key for its RechargeDesk: its secret is shown once, with the lines the "
                        "shop runs to connect."),
                     tr("&Add shop"), parent),
      m_api(api), m_name(new QLineEdit(this)), m_owner(new QLineEdit(this)), m_mobile(new QLineEdit(this)),
      m_circle(new QComboBox(this)), m_gstin(new QLineEdit(this))
{
    m_name->setObjectName(QStringLiteral("shopName"));
    m_name->setMaxLength(kMaxName);
    m_name->setPlaceholderText(tr("As the shop is known, e.g. Gupta Telecom"));
    m_owner->setObjectName(QStringLiteral("shopOwner"));
    m_owner->setMaxLength(kMaxOwner);
    m_mobile->setObjectName(QStringLiteral("shopMobile"));
    m_mobile->setMaxLength(16);
    m_mobile->setPlaceholderText(tr("10 digits"));
    m_circle->setObjectName(QStringLiteral("shopCircle"));
    m_circle->addItem(tr("Choose the circle…"), QString());
    for (const CircleInfo &circle : catalog.circles())
        m_circle->addItem(QStringLiteral("%1 (%2)").arg(circle.name, circle.code), circle.code);
    m_gstin->setObjectName(QStringLiteral("shopGstin"));
    m_gstin->setMaxLength(kGstinLength);
    m_gstin->setPlaceholderText(tr("Optional, 15 characters, e.g. 27AAPFU0939F1ZV"));
    connect(m_gstin, &QLineEdit::textEdited, this, [this](const QString &text) {
        const int cursor = m_gstin->cursorPosition();
        m_gstin->setText(text.toUpper());
        m_gstin->setCursorPosition(cursor);
    });
    addRow(tr("Shop &name"), m_name, QStringLiteral("name"));
    addRow(tr("&Owner"), m_owner, QStringLiteral("owner"));
    addRow(tr("&Mobile"), m_mobile, QStringLiteral("mobile"));
    addRow(tr("&Circle"), m_circle, QStringLiteral("circle_code"));
    addRow(tr("&GSTIN"), m_gstin, QStringLiteral("gstin"));
    m_name->setFocus();
}

QString AddShopDialog::normalisedMobile(const QString &typed)
{
    QString digits = typed;
    digits.remove(QLatin1Char(' '));
    digits.remove(QLatin1Char('-'));
    if (digits.startsWith(QLatin1String("+91")))
        digits.remove(0, 3);
    else if (digits.size() == 12 && digits.startsWith(QLatin1String("91")))
        digits.remove(0, 2);
    else if (digits.size() == 11 && digits.startsWith(QLatin1Char('0')))
        digits.remove(0, 1);
    return digits;
}

ShopsApi::NewShop AddShopDialog::values() const
{
    return {m_name->text().simplified(), m_owner->text().simplified(), normalisedMobile(m_mobile->text()),
            m_circle->currentData().toString(), m_gstin->text().trimmed().toUpper()};
}

void AddShopDialog::submit()
{
    errors().clear();
    const ShopsApi::NewShop shop = values();
    if (shop.name.size() < kMinName || !Validators::isPlainText(shop.name))
        errors().showAt(QStringLiteral("name"),
                        tr("Type the shop's name: %1 to %2 characters.").arg(kMinName).arg(kMaxName), m_name);
    if (shop.owner.isEmpty() || !Validators::isPlainText(shop.owner))
        errors().showAt(QStringLiteral("owner"), tr("Type the name of the person who runs the shop."), m_owner);
    if (!Validators::isPhoneNumber(shop.mobile))
        errors().showAt(QStringLiteral("mobile"),
                        tr("Type the owner's mobile number: 10 digits starting with 6, 7, 8 or 9."), m_mobile);
    if (shop.circleCode.isEmpty())
        errors().showAt(QStringLiteral("circle_code"), tr("Choose the shop's telecom circle."), m_circle);
    if (!shop.gstin.isEmpty() && !Validators::isGstin(shop.gstin))
        errors().showAt(QStringLiteral("gstin"),
                        shop.gstin.size() != kGstinLength
                            ? tr("A GSTIN has 15 characters; this one has %1.").arg(shop.gstin.size())
                            : tr("This is not a valid GSTIN: check the characters (the last one is a check digit)."),
                        m_gstin);
    if (!focusFirstProblem())
        return;
    setBusy(true);
    ShopsApi(m_api).add(shop).then(this, [this](const Answer<ShopCreated> &answer) {
        if (!answer.ok()) {
            showRefusal(*answer.error);
            return;
        }
        setBusy(false);
        emit added(*answer.value);
        accept();
    });
}

#include "topupdialog.h"

#include "shopsapi.h"
#include "validators.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QLineEdit>

namespace {

constexpr int kMaxReference = 64;
constexpr int kMaxNote = 200;

} // namespace

TopUpDialog::TopUpDialog(ApiClient &api, const Shop &shop, QWidget *parent)
    : ShopFormDialog(QStringLiteral("topUpDialog"), tr("Top up %1").arg(shop.name),
                     tr("%1 · balance %2 · credit limit %3")
                         .arg(shop.name, Money::formatIndian(shop.balance), Money::formatIndian(shop.creditLimit)),
                     tr("&Top up"), parent),
      m_api(api), m_shopId(shop.id), m_amount(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 7, this)),
      m_method(new QComboBox(this)), m_reference(new QLineEdit(this)), m_note(new QLineEdit(this))
{
    m_amount->setObjectName(QStringLiteral("topUpAmount"));
    m_amount->setPlaceholderText(tr("Whole rupees"));
    m_method->setObjectName(QStringLiteral("topUpMethod"));
    m_method->addItem(tr("Cash"), QStringLiteral("cash"));
    m_method->addItem(tr("UPI"), QStringLiteral("upi"));
    m_method->addItem(tr("Bank transfer"), QStringLiteral("bank"));
    m_reference->setObjectName(QStringLiteral("topUpReference"));
    m_reference->setMaxLength(kMaxReference);
    m_reference->setPlaceholderText(tr("UTR or receipt number (required for UPI and bank)"));
    m_note->setObjectName(QStringLiteral("topUpNote"));
    m_note->setMaxLength(kMaxNote);
    addRow(tr("&Amount (₹)"), m_amount, QStringLiteral("amount"));
    addRow(tr("Paid &by"), m_method, QStringLiteral("method"));
    addRow(tr("&Reference"), m_reference, QStringLiteral("reference"));
    addRow(tr("N&ote"), m_note, QStringLiteral("note"));
    connect(m_amount, &DigitsLineEdit::refused, this,
            [this](const QString &reason) { errors().showAt(QStringLiteral("amount"), reason); });
    m_amount->setFocus();
}

void TopUpDialog::submit()
{
    errors().clear();
    const qint64 rupees = m_amount->text().toLongLong();
    if (rupees < 1)
        errors().showAt(QStringLiteral("amount"), tr("Type the amount the shop paid, in whole rupees."), m_amount);
    const QString method = m_method->currentData().toString();
    const QString reference = m_reference->text().trimmed();
    if (method != QLatin1String("cash") && reference.isEmpty())
        errors().showAt(QStringLiteral("reference"),
                        tr("Type the UTR or reference of the %1 payment: it goes into the shop's statement.")
                            .arg(m_method->currentText()),
                        m_reference);
    else if (!reference.isEmpty() && !Validators::isPlainText(reference))
        errors().showAt(QStringLiteral("reference"), tr("The reference holds characters that cannot be stored."),
                        m_reference);
    if (!focusFirstProblem())
        return;
    setBusy(true);
    ShopsApi(m_api)
        .topUp(m_shopId, rupees * Money::kPaisePerRupee, method, reference, m_note->text().trimmed())
        .then(this, [this](const Answer<Shop> &answer) {
            if (!answer.ok()) {
                showRefusal(*answer.error);
                return;
            }
            setBusy(false);
            emit toppedUp(*answer.value);
            accept();
        });
}

#include "creditlimitdialog.h"

#include "shopsapi.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QLabel>

CreditLimitDialog::CreditLimitDialog(ApiClient &api, const Shop &shop, QWidget *parent)
    : ShopFormDialog(QStringLiteral("creditLimitDialog"), tr("Credit limit of %1").arg(shop.name),
                     tr("%1 · balance %2 · credit limit now %3")
                         .arg(shop.name, Money::formatIndian(shop.balance), Money::formatIndian(shop.creditLimit)),
                     tr("&Set limit"), parent),
      m_api(api), m_shopId(shop.id), m_limit(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 7, this))
{
    m_limit->setObjectName(QStringLiteral("creditLimit"));
    m_limit->setText(QString::number(shop.creditLimit / Money::kPaisePerRupee));
    m_limit->selectAll();
    addRow(tr("Credit &limit (₹)"), m_limit, QStringLiteral("credit_limit"));
    auto *hint = new QLabel(tr("The shop may sell until its live wallet is this far below zero; beyond it its sales "
                               "are refused for insufficient balance. 0 means no credit."),
                            this);
    Look::set(hint, "hint");
    hint->setWordWrap(true);
    addWideRow(hint);
    connect(m_limit, &DigitsLineEdit::refused, this,
            [this](const QString &reason) { errors().showAt(QStringLiteral("credit_limit"), reason); });
    m_limit->setFocus();
}

void CreditLimitDialog::submit()
{
    errors().clear();
    const Paise limit = m_limit->text().toLongLong() * Money::kPaisePerRupee;
    if (m_limit->text().isEmpty())
        errors().showAt(QStringLiteral("credit_limit"), tr("Type the limit in whole rupees (0 for no credit)."),
                        m_limit);
    else if (limit > kMaxLimit)
        errors().showAt(QStringLiteral("credit_limit"),
                        tr("The limit can be at most %1.").arg(Money::formatIndian(kMaxLimit)), m_limit);
    if (!focusFirstProblem())
        return;
    setBusy(true);
    ShopsApi(m_api).setCreditLimit(m_shopId, limit).then(this, [this](const Answer<Shop> &answer) {
        if (!answer.ok()) {
            showRefusal(*answer.error);
            return;
        }
        setBusy(false);
        emit limitSet(*answer.value);
        accept();
    });
}

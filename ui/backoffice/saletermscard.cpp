#include "saletermscard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "money.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "ui_saletermscard.h"
#include "widgets/formerrors.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>

namespace {

constexpr int kMaxBasisPoints = 2000;            // 20 %, as the server accepts
constexpr double kMaxSettleDelaySeconds = 86400; // one day, as the server accepts

QString kindText(ProductKind kind)
{
    switch (kind) {
    case ProductKind::Mobile:
        return SaleTermsCard::tr("Mobile");
    case ProductKind::Dth:
        return SaleTermsCard::tr("DTH");
    case ProductKind::Voucher:
        return SaleTermsCard::tr("Gift voucher");
    }
    return {};
}

int basisPoints(const QDoubleSpinBox *field)
{
    return qRound(field->value() * 100);
}

} // namespace

SaleTermsCard::SaleTermsCard(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::SaleTermsCard>())
{
    m_ui->setupUi(this);
    BackOfficeUi::makeCard(this);
    m_ui->cardLayout->insertWidget(0, BackOfficeUi::heading(tr("Sale terms"), this));
    m_errors = std::make_unique<FormErrors>(m_ui->termsError);
    m_ui->settleDelay->setRange(0, kMaxSettleDelaySeconds);

    int row = 1; // under the header row of the form
    QWidget *previous = nullptr;
    for (ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
        for (const OperatorInfo &info : context.catalog().operators(kind)) {
            auto *field = new QDoubleSpinBox(this);
            field->setObjectName(QStringLiteral("discountRate_") + info.code);
            field->setRange(0, kMaxBasisPoints / 100.0);
            field->setDecimals(2);
            field->setSingleStep(0.25);
            field->setSuffix(QStringLiteral(" %"));
            field->setAccessibleName(tr("Discount on %1").arg(info.name));
            field->setValue(info.discountBasisPoints / 100.0);
            auto *defaultRate = new QLabel(Money::formatRate(info.discountBasisPoints), this);
            defaultRate->setObjectName(QStringLiteral("defaultRate_") + info.code);
            m_ui->rates->addWidget(new QLabel(info.name, this), row, 0);
            m_ui->rates->addWidget(new QLabel(kindText(kind), this), row, 1);
            m_ui->rates->addWidget(defaultRate, row, 2, Qt::AlignRight);
            m_ui->rates->addWidget(field, row, 3);
            m_rateFields.insert(info.code, field);
            m_defaultBasisPoints.insert(info.code, info.discountBasisPoints);
            if (previous)
                setTabOrder(previous, field);
            previous = field;
            ++row;
        }
    }
    if (previous) { // the rates, then the delay and the buttons
        setTabOrder(previous, m_ui->settleDelay);
        setTabOrder(m_ui->settleDelay, m_ui->saveTerms);
        setTabOrder(m_ui->saveTerms, m_ui->resetRates);
    }

    connect(m_ui->saveTerms, &QPushButton::clicked, this, &SaleTermsCard::onSaveClicked);
    connect(m_ui->resetRates, &QPushButton::clicked, this, &SaleTermsCard::onResetClicked);
}

SaleTermsCard::~SaleTermsCard() = default;

void SaleTermsCard::showShop(const ShopInfo &shop)
{
    for (const DiscountRate &rate : shop.discountRates) {
        m_savedBasisPoints.insert(rate.operatorCode, rate.basisPoints);
        if (QDoubleSpinBox *field = m_rateFields.value(rate.operatorCode); field && !field->hasFocus())
            field->setValue(rate.basisPoints / 100.0);
    }
    if (!m_ui->settleDelay->hasFocus()) {
        m_ui->settleDelay->setValue(double(shop.sandboxSettleDelayMs) / 1000.0);
        m_shownSettleDelay = m_ui->settleDelay->value();
    }
}

void SaleTermsCard::onResetClicked()
{
    for (auto it = m_rateFields.cbegin(); it != m_rateFields.cend(); ++it)
        it.value()->setValue(m_defaultBasisPoints.value(it.key()) / 100.0);
    BackOfficeUi::showNotice(m_ui->termsNotice, tr("Default rates filled in; save to use them."));
}

void SaleTermsCard::onSaveClicked()
{
    if (!m_ui->saveTerms->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_ui->termsNotice, QString());
    QJsonObject changed;
    for (auto it = m_rateFields.cbegin(); it != m_rateFields.cend(); ++it) {
        const int now = basisPoints(it.value());
        if (!m_savedBasisPoints.contains(it.key()) || m_savedBasisPoints.value(it.key()) != now)
            changed.insert(it.key(), now);
    }
    // Only what the person changed is sent: the shown delay is rounded to 0.1 s, so sending it
    // back unchanged would move a 50 ms delay to 100 ms.
    QJsonObject body;
    if (m_ui->settleDelay->value() != m_shownSettleDelay)
        body.insert(QStringLiteral("sandbox_settle_delay_ms"), qRound64(m_ui->settleDelay->value() * 1000));
    if (!changed.isEmpty())
        body.insert(QStringLiteral("discount_basis_points"), changed);
    if (body.isEmpty()) {
        BackOfficeUi::showNotice(m_ui->termsNotice, tr("Nothing to save: no rate or delay changed."));
        return;
    }
    m_ui->saveTerms->setEnabled(false);
    ShopApi(m_context.api()).update(body).then(this, [this, codes = changed.keys()](const Answer<ShopInfo> &answer) {
        m_ui->saveTerms->setEnabled(true);
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        showShop(*answer.value);
        m_context.applyShop(*answer.value);
        BackOfficeUi::showNotice(
            m_ui->termsNotice,
            codes.isEmpty()
                ? tr("Saved. The new settle delay applies to the next test sale.")
                : tr("Saved. New rates for %1 apply from the next sale.").arg(codes.join(QStringLiteral(", "))));
    });
}

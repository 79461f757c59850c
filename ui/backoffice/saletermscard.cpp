#include "saletermscard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "money.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "widgets/formerrors.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

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
    : QWidget(parent), m_context(context), m_settleDelay(new QDoubleSpinBox(this)),
      m_save(new QPushButton(tr("Save sale &terms"), this)), m_notice(BackOfficeUi::notice(this))
{
    setObjectName(QStringLiteral("card"));
    setAttribute(Qt::WA_StyledBackground);
    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("termsError"));
    m_errors = std::make_unique<FormErrors>(general);
    m_notice->setObjectName(QStringLiteral("termsNotice"));

    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(4);
    grid->addWidget(BackOfficeUi::hint(tr("Operator"), this), 0, 0);
    grid->addWidget(BackOfficeUi::hint(tr("Sells"), this), 0, 1);
    grid->addWidget(BackOfficeUi::hint(tr("Default"), this), 0, 2, Qt::AlignRight);
    grid->addWidget(BackOfficeUi::hint(tr("Discount"), this), 0, 3);
    int row = 1;
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
            grid->addWidget(new QLabel(info.name, this), row, 0);
            grid->addWidget(new QLabel(kindText(kind), this), row, 1);
            grid->addWidget(defaultRate, row, 2, Qt::AlignRight);
            grid->addWidget(field, row, 3);
            m_rateFields.insert(info.code, field);
            m_defaultBasisPoints.insert(info.code, info.discountBasisPoints);
            if (previous)
                setTabOrder(previous, field);
            previous = field;
            ++row;
        }
    }
    grid->setColumnStretch(0, 1);

    m_settleDelay->setObjectName(QStringLiteral("settleDelay"));
    m_settleDelay->setRange(0, kMaxSettleDelaySeconds);
    m_settleDelay->setDecimals(1);
    m_settleDelay->setSuffix(tr(" seconds"));
    m_settleDelay->setAccessibleName(tr("Sandbox settle delay"));
    auto *delayRow = new QGridLayout;
    delayRow->addWidget(new QLabel(tr("Sandbox settle delay"), this), 0, 0);
    delayRow->addWidget(m_settleDelay, 0, 1);
    delayRow->setColumnStretch(0, 1);

    auto *reset = new QPushButton(tr("Use &default rates"), this);
    reset->setObjectName(QStringLiteral("resetRates"));
    m_save->setObjectName(QStringLiteral("saveTerms"));
    BackOfficeUi::makePrimary(m_save);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(reset);
    buttons->addStretch();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 14, 20, 14);
    layout->addWidget(BackOfficeUi::heading(tr("Sale terms"), this));
    layout->addWidget(BackOfficeUi::hint(
        tr("Kept by the server. The discount is the commission the shop earns on each sale (up to 20 %); "
           "a change applies to the next sale at every terminal, never to past sales."),
        this));
    layout->addLayout(grid);
    layout->addSpacing(8);
    layout->addLayout(delayRow);
    layout->addWidget(BackOfficeUi::hint(
        tr("Test mode only: how long a test sale to a number ending 1111 or 2222 stays PENDING before it settles."),
        this));
    layout->addLayout(buttons);
    layout->addWidget(general);
    layout->addWidget(m_notice);
    layout->addStretch();
    if (previous) {
        setTabOrder(previous, m_settleDelay);
        setTabOrder(m_settleDelay, m_save);
        setTabOrder(m_save, reset);
    }

    connect(m_save, &QPushButton::clicked, this, &SaleTermsCard::onSaveClicked);
    connect(reset, &QPushButton::clicked, this, &SaleTermsCard::onResetClicked);
}

SaleTermsCard::~SaleTermsCard() = default;

void SaleTermsCard::showShop(const ShopInfo &shop)
{
    for (const DiscountRate &rate : shop.discountRates) {
        m_savedBasisPoints.insert(rate.operatorCode, rate.basisPoints);
        if (QDoubleSpinBox *field = m_rateFields.value(rate.operatorCode); field && !field->hasFocus())
            field->setValue(rate.basisPoints / 100.0);
    }
    if (!m_settleDelay->hasFocus()) {
        m_settleDelay->setValue(double(shop.sandboxSettleDelayMs) / 1000.0);
        m_shownSettleDelay = m_settleDelay->value();
    }
}

void SaleTermsCard::onResetClicked()
{
    for (auto it = m_rateFields.cbegin(); it != m_rateFields.cend(); ++it)
        it.value()->setValue(m_defaultBasisPoints.value(it.key()) / 100.0);
    BackOfficeUi::showNotice(m_notice, tr("Default rates filled in; save to use them."));
}

void SaleTermsCard::onSaveClicked()
{
    if (!m_save->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    QJsonObject changed;
    for (auto it = m_rateFields.cbegin(); it != m_rateFields.cend(); ++it) {
        const int now = basisPoints(it.value());
        if (!m_savedBasisPoints.contains(it.key()) || m_savedBasisPoints.value(it.key()) != now)
            changed.insert(it.key(), now);
    }
    // Only what the person changed is sent: the shown delay is rounded to 0.1 s, so sending it
    // back unchanged would move a 50 ms delay to 100 ms.
    QJsonObject body;
    if (m_settleDelay->value() != m_shownSettleDelay)
        body.insert(QStringLiteral("sandbox_settle_delay_ms"), qRound64(m_settleDelay->value() * 1000));
    if (!changed.isEmpty())
        body.insert(QStringLiteral("discount_basis_points"), changed);
    if (body.isEmpty()) {
        BackOfficeUi::showNotice(m_notice, tr("Nothing to save: no rate or delay changed."));
        return;
    }
    m_save->setEnabled(false);
    ShopApi(m_context.api()).update(body).then(this, [this, codes = changed.keys()](const Answer<ShopInfo> &answer) {
        m_save->setEnabled(true);
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        showShop(*answer.value);
        m_context.applyShop(*answer.value);
        BackOfficeUi::showNotice(
            m_notice,
            codes.isEmpty()
                ? tr("Saved. The new settle delay applies to the next test sale.")
                : tr("Saved. New rates for %1 apply from the next sale.").arg(codes.join(QStringLiteral(", "))));
    });
}

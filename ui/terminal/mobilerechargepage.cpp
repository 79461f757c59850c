#include "mobilerechargepage.h"

#include "salechecks.h"
#include "saledraft.h"
#include "saleflow.h"
#include "saleform.h"
#include "saleinputs.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace {

// Shared with the Plans screen: the circle picked last anywhere on this terminal.
const QString kCircleKey = QStringLiteral("circle");

} // namespace

MobileRechargePage::MobileRechargePage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_flow(new SaleFlow(context, tr("Mobile recharge"), this))
{
    setObjectName(QStringLiteral("page"));
    SaleForm *form = m_flow->form();
    m_inputs = new SaleInputs(context.catalog(), ProductKind::Mobile, *form);
    m_number = SaleInputs::digitsEdit(QStringLiteral("phoneNumber"), 10, tr("10-digit mobile number"), form);
    form->addField(
        tr("Mobile number"), m_number, QStringLiteral("phone_number"),
        [this] { return SaleChecks::phoneProblem(m_number->text()); },
        [this] { return m_number->text().size() == 10; });
    m_inputs->addOperatorField(tr("Choose the operator"));
    m_circle = new QComboBox(form);
    m_circle->setObjectName(QStringLiteral("circle"));
    m_circle->setPlaceholderText(tr("Choose the circle (optional)"));
    for (const CircleInfo &circle : context.catalog().circles())
        m_circle->addItem(tr("%1 (%2)").arg(circle.name, circle.code), circle.code);
    form->addField(tr("Circle"), m_circle, QStringLiteral("circle_code"));
    m_inputs->addAmountField();
    m_planHint = form->addHint();
    m_inputs->addReferenceField();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_flow);

    connect(m_number, &QLineEdit::textChanged, this, &MobileRechargePage::onNumberChanged);
    connect(m_number, &QLineEdit::textChanged, this, &MobileRechargePage::publishSale);
    connect(m_inputs->operatorCombo(), &QComboBox::currentIndexChanged, this, &MobileRechargePage::publishSale);
    connect(m_circle, &QComboBox::currentIndexChanged, this, &MobileRechargePage::publishSale);
    connect(form, &SaleForm::submitted, this, &MobileRechargePage::onSubmitted);
    connect(m_flow, &SaleFlow::newSaleRequested, this, &MobileRechargePage::reset);
    connect(m_flow, &SaleFlow::saleRecorded, this, [this] {
        m_context.setMobileSale({}); // sold: no longer the number being sold
        m_context.rememberOperator(m_number->text(), m_inputs->currentOperator()->code);
        if (m_circle->currentIndex() >= 0)
            m_context.settings().setValue(kCircleKey, m_circle->currentData().toString());
    });
    reset();
}

void MobileRechargePage::onNumberChanged()
{
    QLabel *hint = m_inputs->operatorHint();
    SaleForm::setHint(hint, QString());
    if (m_number->text().size() != 10)
        return;
    const OperatorInfo *remembered =
        m_context.catalog().findOperator(m_context.rememberedOperator(m_number->text()), ProductKind::Mobile);
    const OperatorInfo *chosen = m_inputs->currentOperator();
    if (!remembered || remembered == chosen)
        return;
    if (!m_planSummary.isEmpty() && chosen) {
        // The plan chose the operator; only point out the difference.
        SaleForm::setHint(hint, tr("This number was last recharged with %1.").arg(remembered->name));
        return;
    }
    m_inputs->selectOperator(remembered->code);
    SaleForm::setHint(hint, tr("Operator remembered from this number's last recharge."));
}

void MobileRechargePage::publishSale()
{
    if (m_flow->stage() == SaleFlow::Stage::Result)
        return; // the form still shows the sale just made, not one being prepared
    MobileSaleInProgress sale;
    if (SaleChecks::phoneProblem(m_number->text()).isEmpty()) {
        sale.phoneNumber = m_number->text();
        if (const OperatorInfo *chosen = m_inputs->currentOperator())
            sale.operatorCode = chosen->code;
        sale.circleCode = m_circle->currentData().toString();
    }
    m_context.setMobileSale(sale);
}

void MobileRechargePage::onSubmitted()
{
    SaleDraft draft = m_inputs->draft(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"));
    draft.body.insert(QStringLiteral("phone_number"), m_number->text());
    draft.subjectLabel = tr("Mobile number");
    draft.subject = m_number->text();
    QStringList notes;
    if (m_circle->currentIndex() >= 0)
        notes << tr("Circle: %1").arg(m_circle->currentText());
    if (!m_planSummary.isEmpty())
        notes << tr("Plan: %1").arg(m_planSummary);
    draft.note = notes.join(QLatin1Char('\n'));
    m_flow->confirm(draft);
}

void MobileRechargePage::reset()
{
    m_inputs->reset();
    m_number->clear();
    // The circle used last at this terminal, else the shop's own circle.
    const int remembered = m_circle->findData(m_context.settings().value(kCircleKey).toString());
    m_circle->setCurrentIndex(remembered >= 0 ? remembered : m_circle->findData(m_context.shopCircle()));
    m_planSummary.clear();
    SaleForm::setHint(m_planHint, QString());
    SaleForm::setHint(m_inputs->operatorHint(), QString());
}

void MobileRechargePage::fillFromPlan(const QString &operatorCode, const QString &circleCode, qint64 amountRupees,
                                      const QString &planSummary)
{
    if (m_flow->stage() == SaleFlow::Stage::Sending)
        return;
    if (m_flow->stage() != SaleFlow::Stage::Form)
        m_flow->newSale();
    m_inputs->selectOperator(operatorCode);
    if (const int index = m_circle->findData(circleCode); index >= 0)
        m_circle->setCurrentIndex(index);
    m_inputs->amountEdit()->setText(QString::number(amountRupees));
    m_planSummary = planSummary;
    SaleForm::setHint(m_planHint, tr("Plan: %1").arg(planSummary));
    (m_number->text().isEmpty() ? static_cast<QWidget *>(m_number) : m_inputs->amountEdit())
        ->setFocus(Qt::OtherFocusReason);
}

#include "saleinputs.h"

#include "salechecks.h"
#include "saleform.h"
#include "widgets/digitslineedit.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>

namespace {

const QString kAmountField = QStringLiteral("amount");

} // namespace

SaleInputs::SaleInputs(const OperatorCatalog &catalog, ProductKind kind, SaleForm &form)
    : QObject(&form), m_catalog(catalog), m_kind(kind), m_form(form)
{}

DigitsLineEdit *SaleInputs::digitsEdit(const QString &objectName, int maxDigits, const QString &placeholder,
                                       QWidget *parent)
{
    auto *edit = new DigitsLineEdit(DigitsLineEdit::Kind::Digits, maxDigits, parent);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    return edit;
}

void SaleInputs::addOperatorField(const QString &placeholder)
{
    m_operator = new QComboBox(&m_form);
    m_operator->setObjectName(QStringLiteral("operator"));
    m_operator->setPlaceholderText(placeholder);
    for (const OperatorInfo &op : m_catalog.operators(m_kind))
        m_operator->addItem(tr("%1 (%2)").arg(op.name, op.code), op.code);
    m_operator->setCurrentIndex(-1);
    m_form.addField(tr("Operator"), m_operator, QStringLiteral("operator_code"),
                    [this] { return currentOperator() ? QString() : tr("Choose the operator."); });
    m_operatorHint = m_form.addHint();
    connect(m_operator, &QComboBox::currentIndexChanged, this, &SaleInputs::onOperatorChanged);
}

void SaleInputs::addAmountField()
{
    m_amount = new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 5, &m_form);
    m_amount->setObjectName(kAmountField);
    m_amount->setPlaceholderText(tr("Whole rupees, e.g. 299"));
    m_form.addField(
        tr("Amount (₹)"), m_amount, kAmountField,
        [this] { return SaleChecks::amountProblem(m_amount->text(), currentOperator()); },
        [this] { return m_amount->text().size() >= 2 && currentOperator(); });
    m_limits = m_form.addHint();
    onOperatorChanged();
}

void SaleInputs::addReferenceField()
{
    m_reference = new QLineEdit(&m_form);
    m_reference->setObjectName(QStringLiteral("referenceId"));
    m_reference->setPlaceholderText(tr("Optional: your own bill or order number"));
    m_reference->setMaxLength(64);
    m_form.addField(
        tr("Reference"), m_reference, QStringLiteral("reference_id"),
        [this] { return SaleChecks::referenceProblem(m_reference->text()); },
        [this] { return !m_reference->text().isEmpty(); });
    m_form.addHint(tr("Leave empty and the terminal numbers the sale itself."));
}

const OperatorInfo *SaleInputs::currentOperator() const
{
    if (m_kind == ProductKind::Voucher)
        return &m_catalog.voucherIssuer();
    return m_operator ? m_catalog.findOperator(m_operator->currentData().toString(), m_kind) : nullptr;
}

bool SaleInputs::selectOperator(const QString &code)
{
    const int index = m_operator ? m_operator->findData(code) : -1;
    if (index >= 0)
        m_operator->setCurrentIndex(index);
    return index >= 0;
}

SaleDraft SaleInputs::draft() const
{
    const OperatorInfo *op = currentOperator();
    Q_ASSERT(op);
    SaleDraft draft;
    draft.kind = m_kind;
    draft.body.insert(kAmountField, m_amount->text());
    if (m_kind != ProductKind::Voucher)
        draft.body.insert(QStringLiteral("operator_code"), op->code);
    draft.op = *op;
    draft.bill = SaleChecks::rupees(m_amount->text()).value_or(0) * Money::kPaisePerRupee;
    draft.typedReference = m_reference ? m_reference->text() : QString();
    return draft;
}

void SaleInputs::reset()
{
    if (m_operator)
        m_operator->setCurrentIndex(-1);
    if (m_operatorHint)
        SaleForm::setHint(m_operatorHint, QString());
    if (m_amount)
        m_amount->clear();
    if (m_reference)
        m_reference->clear();
    m_form.clearErrors();
}

void SaleInputs::onOperatorChanged()
{
    if (m_limits) {
        const OperatorInfo *op = currentOperator();
        SaleForm::setHint(m_limits, op ? SaleChecks::limitsText(*op) : tr("Choose the operator to see its limits."));
        m_form.recheck(kAmountField);
    }
    emit operatorChanged();
}

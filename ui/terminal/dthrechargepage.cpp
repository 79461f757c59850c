#include "dthrechargepage.h"

#include "salechecks.h"
#include "saledraft.h"
#include "saleflow.h"
#include "saleform.h"
#include "saleinputs.h"
#include "widgets/digitslineedit.h"
#include "widgets/look.h"

#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

DthRechargePage::DthRechargePage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_flow(new SaleFlow(context, tr("DTH recharge"), this))
{
    Look::set(this, "page");
    SaleForm *form = m_flow->form();
    m_inputs = new SaleInputs(context.catalog(), ProductKind::Dth, *form);
    m_inputs->addOperatorField(tr("Choose the DTH operator"));
    m_number = SaleInputs::digitsEdit(QStringLiteral("subscriberNumber"), 16, tr("Subscriber number"), form);
    form->addField(
        tr("Subscriber number"), m_number, QStringLiteral("number"),
        [this] { return SaleChecks::dthNumberProblem(m_number->text(), m_inputs->currentOperator()); },
        [this] { return m_inputs->currentOperator() && m_number->text().size() >= 10; });
    m_inputs->addAmountField();
    m_inputs->addReferenceField();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_flow);

    connect(m_inputs, &SaleInputs::operatorChanged, this, &DthRechargePage::onOperatorChanged);
    connect(form, &SaleForm::submitted, this, [this] {
        SaleDraft draft = m_inputs->draft();
        draft.body.insert(QStringLiteral("number"), m_number->text());
        draft.subjectLabel = tr("Subscriber number");
        draft.subject = m_number->text();
        m_flow->confirm(draft);
    });
    connect(m_flow, &SaleFlow::newSaleRequested, this, [this] {
        m_number->clear();
        m_inputs->reset();
    });
    onOperatorChanged();
}

void DthRechargePage::onOperatorChanged()
{
    // The operator's number format goes under the picker, right above the number.
    const OperatorInfo *op = m_inputs->currentOperator();
    SaleForm::setHint(m_inputs->operatorHint(),
                      op ? tr("Subscriber number: %1").arg(op->numberHint) : tr("Choose the operator first."));
    m_flow->form()->recheck(QStringLiteral("number"));
}

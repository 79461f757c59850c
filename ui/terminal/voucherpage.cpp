#include "voucherpage.h"

#include "salechecks.h"
#include "saledraft.h"
#include "saleflow.h"
#include "saleform.h"
#include "saleinputs.h"
#include "widgets/look.h"

#include <QLineEdit>
#include <QVBoxLayout>

VoucherPage::VoucherPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_flow(new SaleFlow(context, tr("Google Play gift voucher"), this))
{
    Look::set(this, "page");
    SaleForm *form = m_flow->form();
    m_inputs = new SaleInputs(context.catalog(), ProductKind::Voucher, *form);
    m_inputs->addAmountField();
    m_email = new QLineEdit(form);
    m_email->setObjectName(QStringLiteral("customerEmail"));
    m_email->setPlaceholderText(tr("Optional: the code is also sent here"));
    m_email->setMaxLength(254);
    m_email->setInputMethodHints(Qt::ImhEmailCharactersOnly);
    form->addField(tr("Customer e-mail"), m_email, QStringLiteral("customer_email"),
                   [this] { return SaleChecks::emailProblem(m_email->text().trimmed()); });
    m_inputs->addReferenceField();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_flow);

    connect(form, &SaleForm::submitted, this, [this] {
        const QString email = m_email->text().trimmed();
        SaleDraft draft = m_inputs->draft();
        if (!email.isEmpty())
            draft.body.insert(QStringLiteral("customer_email"), email);
        draft.subjectLabel = tr("Customer e-mail");
        draft.subject = email;
        m_flow->confirm(draft);
    });
    connect(m_flow, &SaleFlow::newSaleRequested, this, [this] {
        m_email->clear();
        m_inputs->reset();
    });
}

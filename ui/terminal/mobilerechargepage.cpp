#include "mobilerechargepage.h"

#include "apiclient.h"
#include "clock.h"
#include "numbersapi.h"
#include "salechecks.h"
#include "saledraft.h"
#include "saleflow.h"
#include "saleform.h"
#include "salehistory.h"
#include "saleinputs.h"
#include "widgets/digitslineedit.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

// Shared with the Plans screen: the circle picked last anywhere on this terminal.
const QString kCircleKey = QStringLiteral("circle");

} // namespace

MobileRechargePage::MobileRechargePage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_flow(new SaleFlow(context, tr("Mobile recharge"), this))
{
    Look::set(this, "page");
    SaleForm *form = m_flow->form();
    m_inputs = new SaleInputs(context.catalog(), ProductKind::Mobile, *form);
    m_number = SaleInputs::digitsEdit(QStringLiteral("phoneNumber"), 10, tr("10-digit mobile number"), form);
    form->addField(
        tr("Mobile number"), m_number, QStringLiteral("phone_number"),
        [this] { return SaleChecks::phoneProblem(m_number->text()); },
        [this] { return m_number->text().size() == 10; });
    // The offer is a button for the mouse; the keyboard takes it with Enter (no extra Tab stop).
    m_repeat = new QPushButton(form);
    m_repeat->setObjectName(QStringLiteral("repeatLast"));
    m_repeat->setFocusPolicy(Qt::NoFocus);
    Look::set(m_repeat, "repeatChip");
    m_repeat->hide();
    form->addBelow(m_repeat);
    m_inputs->addOperatorField(tr("Choose the operator"));
    m_circle = new QComboBox(form);
    m_circle->setObjectName(QStringLiteral("circle"));
    m_circle->setPlaceholderText(tr("Choose the circle (optional)"));
    for (const CircleInfo &circle : context.catalog().circles())
        m_circle->addItem(tr("%1 (%2)").arg(circle.name, circle.code), circle.code);
    form->addField(tr("Circle"), m_circle, QStringLiteral("circle_code"));
    m_inputs->addAmountField();
    m_planChip = new QWidget(form);
    m_planChip->setObjectName(QStringLiteral("planChip"));
    m_planChip->setAttribute(Qt::WA_StyledBackground);
    Look::set(m_planChip, "planChip");
    m_planText = new QLabel(m_planChip);
    m_planText->setObjectName(QStringLiteral("planChipText"));
    m_planText->setWordWrap(true);
    m_unlink = new QPushButton(tr("Unlink"), m_planChip);
    m_unlink->setObjectName(QStringLiteral("unlinkPlan"));
    auto *chipLayout = new QHBoxLayout(m_planChip);
    chipLayout->setContentsMargins(10, 4, 4, 4);
    chipLayout->addWidget(m_planText, 1);
    chipLayout->addWidget(m_unlink);
    m_planChip->hide();
    form->addBelow(m_planChip);
    m_planHint = form->addHint();
    m_inputs->addReferenceField();
    m_inputs->amountEdit()->installEventFilter(this);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_flow);

    connect(m_number, &DigitsLineEdit::textChanged, this, &MobileRechargePage::onNumberChanged);
    connect(m_inputs->amountEdit(), &DigitsLineEdit::textChanged, this, &MobileRechargePage::updateOffer);
    connect(m_inputs, &SaleInputs::operatorChanged, this, [this] {
        const OperatorInfo *op = m_inputs->currentOperator();
        if (planLinked() && (!op || op->code != m_planOperator))
            unlinkPlan(true);
        updateOffer();
    });
    connect(m_unlink, &QPushButton::clicked, this, [this] {
        unlinkPlan(true);
        m_inputs->amountEdit()->setFocus(Qt::OtherFocusReason);
        m_inputs->amountEdit()->selectAll();
    });
    connect(m_repeat, &QPushButton::clicked, form, &SaleForm::submit);
    connect(form, &SaleForm::aboutToSubmit, this, &MobileRechargePage::takeOffer);
    connect(m_number, &QLineEdit::textChanged, this, &MobileRechargePage::publishSale);
    connect(m_inputs->operatorCombo(), &QComboBox::currentIndexChanged, this, &MobileRechargePage::publishSale);
    connect(m_circle, &QComboBox::currentIndexChanged, this, &MobileRechargePage::publishSale);
    connect(form, &SaleForm::submitted, this, &MobileRechargePage::onSubmitted);
    connect(m_flow, &SaleFlow::newSaleRequested, this, &MobileRechargePage::reset);
    connect(m_flow, &SaleFlow::saleRecorded, this, [this] {
        m_context.setMobileSale({}); // sold: no longer the number being sold
        if (m_circle->currentIndex() >= 0)
            m_context.settings().setValue(kCircleKey, m_circle->currentData().toString());
    });
    reset();
}

QLabel *MobileRechargePage::operatorHint() const
{
    return m_inputs->operatorHint();
}

void MobileRechargePage::onNumberChanged()
{
    SaleForm::setHint(m_inputs->operatorHint(), QString());
    m_lastSale.reset();
    updateOffer();
    const QString number = m_number->text();
    if (number.size() != 10 || !SaleChecks::phoneProblem(number).isEmpty())
        return;
    SaleHistory::lookUp(m_context.api(), ProductKind::Mobile, number)
        .then(this, [this, number](const Answer<Page<TransactionRecord>> &answer) {
            const QList<TransactionRecord> records = SaleHistory::records(answer, number);
            if (!records.isEmpty())
                onLastSale(number, records.constFirst());
        });
    lookUpNumber(number);
}

void MobileRechargePage::lookUpNumber(const QString &number)
{
    // What the clerk had chosen when asking: a choice made while the answer travels is not overruled.
    const OperatorInfo *chosen = m_inputs->currentOperator();
    const QString operatorAsked = chosen ? chosen->code : QString();
    const QString circleAsked = m_circle->currentData().toString();
    NumbersApi(m_context.api())
        .lookup(number)
        .then(this, [this, number, operatorAsked, circleAsked](const Answer<NumberInfo> &answer) {
            // Unknown (404) or unreachable: nothing filled, nothing said; the clerk chooses as before.
            const bool current = number == m_number->text() && m_flow->stage() == SaleFlow::Stage::Form;
            if (answer.ok() && current)
                onNumberKnown(answer.value->best, operatorAsked, circleAsked);
            emit numberLookupAnswered(number, answer.ok());
        });
}

void MobileRechargePage::onNumberKnown(const NumberInfo::Sighting &known, const QString &operatorAsked,
                                       const QString &circleAsked)
{
    const OperatorInfo *op = m_context.catalog().findOperator(known.operatorCode, ProductKind::Mobile);
    if (!op)
        return;
    const OperatorInfo *chosen = m_inputs->currentOperator();
    const QString chosenCode = chosen ? chosen->code : QString();
    const bool clerkChose = chosenCode != operatorAsked || (planLinked() && chosen);
    if (!clerkChose && chosen != op)
        m_inputs->selectOperator(op->code);
    if (!clerkChose && m_circle->currentData().toString() == circleAsked) {
        if (const int index = m_circle->findData(known.circleCode); index >= 0)
            m_circle->setCurrentIndex(index);
    }
    SaleForm::setHint(m_inputs->operatorHint(), knownText(op->name, known));
}

QString MobileRechargePage::knownText(const QString &operatorName, const NumberInfo::Sighting &known) const
{
    const QDateTime when = IstTime::toIst(known.lastSoldAt);
    const QString day = when.date() == IstTime::toIst(m_context.clock().nowUtc()).date()
                            ? tr("today")
                            : tr("on %1").arg(QLocale().toString(when.date(), QStringLiteral("d MMM")));
    return known.source == QLatin1String("upstream")
               ? tr("Last recharged with %1 %2, from the distributor.").arg(operatorName, day)
               : tr("Last recharged with %1 %2.").arg(operatorName, day);
}

void MobileRechargePage::onLastSale(const QString &number, const TransactionRecord &record)
{
    if (number != m_number->text() || m_flow->stage() != SaleFlow::Stage::Form)
        return;
    // The API names the operator; the form needs its code.
    m_lastSaleOperator.clear();
    for (const OperatorInfo &op : m_context.catalog().operators(ProductKind::Mobile)) {
        if (op.name == record.operatorName)
            m_lastSaleOperator = op.code;
    }
    if (m_lastSaleOperator.isEmpty() || record.billAmount % Money::kPaisePerRupee != 0)
        return;
    m_lastSale = record;
    updateOffer();
}

void MobileRechargePage::updateOffer()
{
    // Only while it cannot overrule the clerk: no amount typed, no plan, no other operator chosen.
    const OperatorInfo *chosen = m_inputs->currentOperator();
    const bool offer = m_lastSale && m_inputs->amountEdit()->text().isEmpty() && !planLinked() &&
                       (!chosen || chosen->code == m_lastSaleOperator);
    if (offer) {
        const QString date = IstTime::formatMs(m_lastSale->createdAtMs).left(10);
        const QString today = IstTime::formatMs(m_context.clock().nowMs()).left(10);
        const QString when =
            date == today ? tr("today at %1").arg(SaleHistory::timeOfDay(*m_lastSale)) : tr("on %1").arg(date);
        m_repeat->setText(tr("Repeat last: %1 %2 (Enter) · sold %3")
                              .arg(SaleHistory::shortAmount(m_lastSale->billAmount), m_lastSale->operatorName, when));
    }
    m_repeat->setVisible(offer);
}

void MobileRechargePage::takeOffer()
{
    if (m_repeat->isHidden())
        return;
    const Paise bill = m_lastSale ? m_lastSale->billAmount : 0;
    m_inputs->selectOperator(m_lastSaleOperator);
    m_inputs->amountEdit()->setText(QString::number(bill / Money::kPaisePerRupee));
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
    SaleDraft draft = m_inputs->draft();
    draft.body.insert(QStringLiteral("phone_number"), m_number->text());
    draft.subjectLabel = tr("Mobile number");
    draft.subject = m_number->text();
    QStringList notes;
    if (m_circle->currentIndex() >= 0) {
        // Sent so the shop learns the number's circle (issue 29, GET /api/v1/numbers/{n}).
        draft.body.insert(QStringLiteral("circle_code"), m_circle->currentData().toString());
        draft.circle = m_circle->currentText();
        notes << tr("Circle: %1").arg(draft.circle);
    }
    // A plan whose price is no longer the amount typed is not what is being sold.
    if (m_plan && m_plan->soldPlan().price == draft.bill) {
        draft.plan = m_plan->soldPlan();
        notes << tr("Plan: %1").arg(m_plan->summary());
    }
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
    unlinkPlan(false);
    SaleForm::setHint(m_inputs->operatorHint(), QString());
}

void MobileRechargePage::unlinkPlan(bool visibly)
{
    const bool wasLinked = planLinked();
    m_plan.reset();
    m_planOperator.clear();
    m_planChip->hide();
    m_inputs->amountEdit()->setReadOnly(false);
    SaleForm::setHint(m_planHint, visibly && wasLinked ? tr("Plan unlinked: this sale is a plain amount, not the plan.")
                                                       : QString());
    updateOffer();
}

void MobileRechargePage::fillFromPlan(const QString &operatorCode, const QString &circleCode, const PlanItem &plan)
{
    if (m_flow->stage() == SaleFlow::Stage::Sending)
        return;
    // A plan starts a new customer's sale: nothing of the previous one stays.
    m_flow->newSale();
    m_inputs->selectOperator(operatorCode);
    if (const int index = m_circle->findData(circleCode); index >= 0)
        m_circle->setCurrentIndex(index);
    m_inputs->amountEdit()->setText(QString::number(plan.amountRupees));
    m_inputs->amountEdit()->setReadOnly(true);
    m_plan = plan;
    m_planOperator = operatorCode;
    m_planText->setText(tr("Plan: %1").arg(plan.summary()));
    m_planChip->show();
    SaleForm::setHint(m_planHint, QString());
    updateOffer();
    m_number->setFocus(Qt::OtherFocusReason);
}

bool MobileRechargePage::eventFilter(QObject *watched, QEvent *event)
{
    // Typing into the plan's amount changes the amount: the plan goes, the typed digit starts
    // the new amount (Backspace and Delete edit the plan's amount).
    if (watched == m_inputs->amountEdit() && event->type() == QEvent::KeyPress && planLinked()) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const QString text = key->text();
        const bool digit = text.size() == 1 && text.at(0) >= QLatin1Char('0') && text.at(0) <= QLatin1Char('9');
        if (digit || key->key() == Qt::Key_Backspace || key->key() == Qt::Key_Delete) {
            unlinkPlan(true);
            if (digit)
                m_inputs->amountEdit()->selectAll();
        }
    }
    return QWidget::eventFilter(watched, event);
}

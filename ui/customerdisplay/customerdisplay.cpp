#include "customerdisplay.h"

#include "widgets/look.h"
#include "widgets/upiqrwidget.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QScreen>
#include <QStackedWidget>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace {

/// A centred, wrapping plain-text label named `objectName` (its look is set by the caller, as a literal for
/// tests/tools/check_looks.py).
QLabel *newLabel(const char *objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QLatin1String(objectName));
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

void showText(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

/// The payee a UPI link pays (its `pn`), as the customer's app will show it.
QString payeeOf(const QString &link)
{
    return QUrlQuery(QUrl(link)).queryItemValue(QStringLiteral("pn"), QUrl::FullyDecoded);
}

} // namespace

CustomerDisplayPanel::CustomerDisplayPanel(QWidget *parent)
    : QWidget(parent), m_backToIdle(new QTimer(this)), m_pages(new QStackedWidget(this)), m_idlePage(new QWidget),
      m_payPage(new QWidget), m_outcomePage(new QWidget)
{
    setObjectName(QStringLiteral("customerDisplay"));
    Look::set(this, "customerDisplay");
    setAttribute(Qt::WA_StyledBackground, true);
    m_backToIdle->setSingleShot(true);
    m_backToIdle->setInterval(kBackToIdleMs);
    connect(m_backToIdle, &QTimer::timeout, this, &CustomerDisplayPanel::backToIdle);

    // Idle: the shop's name and a welcome, in the middle.
    m_shopName = newLabel("customerShopName", m_idlePage);
    Look::set(m_shopName, "customerShop");
    m_welcome = newLabel("customerWelcome", m_idlePage);
    Look::set(m_welcome, "customerWelcome");
    auto *idle = new QVBoxLayout(m_idlePage);
    idle->addStretch();
    idle->addWidget(m_shopName);
    idle->addWidget(m_welcome);
    idle->addStretch();

    // To pay: the sale and the amount on the left, the UPI QR on the right when paying by UPI.
    m_payOperator = newLabel("customerOperator", m_payPage);
    Look::set(m_payOperator, "customerOperator");
    m_payNumber = newLabel("customerNumber", m_payPage);
    Look::set(m_payNumber, "customerNumber");
    m_payAmountCaption = newLabel("customerAmountCaption", m_payPage);
    Look::set(m_payAmountCaption, "customerCaption");
    m_payAmount = newLabel("customerAmount", m_payPage);
    Look::set(m_payAmount, "customerAmount");
    m_cashHint = newLabel("customerCashHint", m_payPage);
    Look::set(m_cashHint, "customerHint");
    m_upiColumn = new QWidget(m_payPage);
    m_qr = new UpiQrWidget(m_upiColumn);
    m_qr->setObjectName(QStringLiteral("customerUpiQr"));
    m_upiHint = newLabel("customerUpiHint", m_upiColumn);
    Look::set(m_upiHint, "customerHint");
    auto *sale = new QVBoxLayout;
    sale->addStretch();
    sale->addWidget(m_payOperator);
    sale->addWidget(m_payNumber);
    sale->addSpacing(24);
    sale->addWidget(m_payAmountCaption);
    sale->addWidget(m_payAmount);
    sale->addWidget(m_cashHint);
    sale->addStretch();
    auto *upi = new QVBoxLayout(m_upiColumn);
    upi->setContentsMargins(0, 0, 0, 0);
    upi->addWidget(m_qr, 1);
    upi->addWidget(m_upiHint);
    auto *pay = new QHBoxLayout(m_payPage);
    pay->setContentsMargins(32, 24, 32, 24);
    pay->setSpacing(32);
    pay->addLayout(sale, 1);
    pay->addWidget(m_upiColumn, 1);

    // Outcome: in words, then whose sale it was.
    m_outcome = newLabel("customerOutcome", m_outcomePage);
    Look::set(m_outcome, "customerOutcome");
    m_outcomeSale = newLabel("customerOutcomeSale", m_outcomePage);
    Look::set(m_outcomeSale, "customerDetail");
    m_outcomeAmount = newLabel("customerOutcomeAmount", m_outcomePage);
    Look::set(m_outcomeAmount, "customerDetail");
    m_outcomeHint = newLabel("customerOutcomeHint", m_outcomePage);
    Look::set(m_outcomeHint, "customerHint");
    auto *outcome = new QVBoxLayout(m_outcomePage);
    outcome->setContentsMargins(32, 24, 32, 24);
    outcome->addStretch();
    outcome->addWidget(m_outcome);
    outcome->addSpacing(16);
    outcome->addWidget(m_outcomeSale);
    outcome->addWidget(m_outcomeAmount);
    outcome->addWidget(m_outcomeHint);
    outcome->addStretch();

    m_pages->addWidget(m_idlePage);
    m_pages->addWidget(m_payPage);
    m_pages->addWidget(m_outcomePage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);
    setState(CustomerDisplayState());
}

CustomerDisplayPanel::~CustomerDisplayPanel() = default;

void CustomerDisplayPanel::setBackToIdleMs(int ms)
{
    m_backToIdle->setInterval(ms);
}

int CustomerDisplayPanel::backToIdleMs() const
{
    return m_backToIdle->interval();
}

void CustomerDisplayPanel::setState(const CustomerDisplayState &state)
{
    m_state = state;
    m_backToIdle->stop();
    // Nothing of the previous sale stays in any label, shown or not.
    for (QLabel *label : findChildren<QLabel *>())
        label->clear();
    m_qr->clear();
    switch (state.stage) {
    case CustomerDisplayState::Stage::Idle:
        showIdle();
        break;
    case CustomerDisplayState::Stage::ToPay:
        showToPay();
        break;
    case CustomerDisplayState::Stage::Recharged:
    case CustomerDisplayState::Stage::NotRecharged:
    case CustomerDisplayState::Stage::Waiting:
    case CustomerDisplayState::Stage::MoneyBack:
        showOutcome();
        m_backToIdle->start();
        break;
    }
}

void CustomerDisplayPanel::showIdle()
{
    showText(m_shopName, m_state.shopName);
    showText(m_welcome, tr("Welcome"));
    m_pages->setCurrentWidget(m_idlePage);
}

void CustomerDisplayPanel::showToPay()
{
    const bool upi = m_state.tender == QLatin1String("upi") && !m_state.upiLink.isEmpty();
    showText(m_payOperator, m_state.operatorName);
    showText(m_payNumber, m_state.number);
    showText(m_payAmountCaption, tr("Amount to pay"));
    showText(m_payAmount, Money::formatIndian(m_state.amount));
    showText(m_cashHint, m_state.tender == QLatin1String("cash") ? tr("Please pay in cash at the counter") : QString());
    if (upi) {
        m_qr->setPayment(m_state.upiLink, m_state.amount, payeeOf(m_state.upiLink));
        //: RechargeDesk cannot see the payment: the clerk checks the shop's UPI app or soundbox.
        showText(m_upiHint, tr("Pay by any UPI app; the shop confirms receipt"));
    }
    m_upiColumn->setVisible(upi);
    m_pages->setCurrentWidget(m_payPage);
}

void CustomerDisplayPanel::showOutcome()
{
    const QString amount = Money::formatIndian(m_state.amount);
    const bool upi = m_state.tender == QLatin1String("upi");
    QString headline;
    QString paid;
    QString hint;
    const char *tone = "good";
    switch (m_state.stage) {
    case CustomerDisplayState::Stage::Recharged:
        headline = tr("Recharged ✓");
        //: What the customer paid for a recharge that went through, e.g. "Paid ₹299.00".
        paid = tr("Paid %1").arg(amount);
        break;
    case CustomerDisplayState::Stage::NotRecharged:
        headline = tr("Not recharged — nothing to pay");
        tone = "bad";
        break;
    case CustomerDisplayState::Stage::Waiting:
        //: The telecom operator (Jio, Airtel…) has not answered yet; not the shop's clerk.
        headline = tr("Waiting for the operator");
        //: The amount of a sale still waiting, e.g. "Amount ₹299.00".
        paid = tr("Amount %1").arg(amount);
        hint = tr("The operator has not confirmed the recharge yet. The shop will tell you when it does.");
        tone = "waiting";
        break;
    case CustomerDisplayState::Stage::MoneyBack:
        headline = tr("Not recharged — your money will be given back");
        paid = tr("To be given back: %1").arg(amount);
        if (upi)
            hint = tr("The shop returns it by UPI.");
        else if (m_state.tender == QLatin1String("cash"))
            hint = tr("The shop returns it in cash.");
        tone = "bad";
        break;
    case CustomerDisplayState::Stage::Idle:
    case CustomerDisplayState::Stage::ToPay:
        break;
    }
    showText(m_outcome, headline);
    m_outcome->setProperty("tone", QString::fromLatin1(tone));
    Look::set(m_outcome, "customerOutcome");
    QStringList sale{m_state.operatorName, m_state.number};
    sale.removeAll(QString());
    showText(m_outcomeSale, sale.join(QStringLiteral(" · ")));
    showText(m_outcomeAmount, paid);
    showText(m_outcomeHint, hint);
    m_pages->setCurrentWidget(m_outcomePage);
}

void CustomerDisplayPanel::backToIdle()
{
    CustomerDisplayState idle;
    idle.shopName = m_state.shopName;
    setState(idle);
}

CustomerDisplayWindow::CustomerDisplayWindow(QWidget *parent)
    : QWidget(parent, Qt::Window | Qt::WindowDoesNotAcceptFocus), m_panel(new CustomerDisplayPanel(this))
{
    setObjectName(QStringLiteral("customerDisplayWindow"));
    setWindowTitle(tr("Customer display"));
    setAttribute(Qt::WA_ShowWithoutActivating);
    setFocusPolicy(Qt::NoFocus);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_panel);
}

bool CustomerDisplayWindow::showOnScreen(int screenIndex)
{
    const QList<QScreen *> screens = QGuiApplication::screens();
    const bool found = screenIndex >= 0 && screenIndex < screens.size();
    QScreen *target = found ? screens.at(screenIndex) : QGuiApplication::primaryScreen();
    if (target) {
        setScreen(target);
        setGeometry(target->geometry());
    }
    // Not showFullScreen(): it activates the window, and the clerk's keyboard would go to the customer's screen.
    setWindowState((windowState() & ~(Qt::WindowMinimized | Qt::WindowMaximized)) | Qt::WindowFullScreen);
    show();
    return found;
}

#include "repeatsalepanel.h"

#include "salehistory.h"
#include "widgets/look.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

RepeatSalePanel::RepeatSalePanel(QWidget *parent)
    : QWidget(parent), m_question(new QLabel(this)), m_details(new QLabel(this)),
      m_no(new QPushButton(tr("No, go back (Enter)"), this)), m_yes(new QPushButton(tr("Yes, sell again (Y)"), this))
{
    Look::set(this, "card");
    setAttribute(Qt::WA_StyledBackground);
    m_question->setObjectName(QStringLiteral("repeatQuestion"));
    m_question->setWordWrap(true);
    Look::set(m_question, "question");
    Look::set(m_details, "hint");
    m_details->setWordWrap(true);
    Look::set(m_no, "action");
    m_no->setAutoDefault(true);
    m_yes->setObjectName(QStringLiteral("repeatYes"));
    m_yes->setAutoDefault(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_no);
    buttons->addWidget(m_yes);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 16, 20, 16);
    layout->addWidget(m_question);
    layout->addWidget(m_details);
    layout->addSpacing(8);
    layout->addLayout(buttons);
    setTabOrder(m_no, m_yes);

    connect(m_no, &QPushButton::clicked, this, &RepeatSalePanel::goBack);
    connect(m_yes, &QPushButton::clicked, this, &RepeatSalePanel::sellAgain);
}

void RepeatSalePanel::ask(const TransactionRecord &record)
{
    m_question->setText(SaleHistory::repeatQuestion(record));
    m_details->setText(tr("Transaction %1 · %2 · %3. Selling again charges the wallet again.")
                           .arg(record.transactionId)
                           .arg(record.operatorName, TransactionNames::status(record.status)));
    m_no->setFocus(Qt::OtherFocusReason);
}

void RepeatSalePanel::keyPressEvent(QKeyEvent *event)
{
    // The buttons handle Enter and Space themselves and pass letters and Esc up to here.
    switch (event->key()) {
    case Qt::Key_Y:
        emit sellAgain();
        return;
    case Qt::Key_N:
    case Qt::Key_Escape:
        emit goBack();
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

#include "shiftcloseddialog.h"

#include "backoffice/reportview.h"
#include "receipts/shiftreportprint.h"
#include "receipts/shiftwording.h"
#include "terminalcontext.h"
#include "widgets/look.h"
#include "widgets/verticalscroll.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

ShiftClosedDialog::ShiftClosedDialog(TerminalContext &context, const Shift &shift, QWidget *parent)
    : QDialog(parent), m_context(context), m_shift(shift), m_difference(new QLabel(this)),
      m_print(new QPushButton(tr("Print report (P)"), this)),
      m_openNext(new QPushButton(tr("Open next shift (N)"), this)), m_signOut(new QPushButton(tr("Sign out (S)"), this))
{
    setObjectName(QStringLiteral("shiftClosedDialog"));
    setWindowTitle(tr("Shift closed"));
    Look::set(this, "page");
    auto *title = new QLabel(tr("Shift closed"), this);
    Look::set(title, "pageTitle");
    m_difference->setObjectName(QStringLiteral("closedDifference"));
    const QString counted = ShiftWording::moneyText(shift.countedCash);
    const QString expected = ShiftWording::moneyText(shift.expectedCash);
    m_difference->setText(
        tr("Counted %1 · expected %2 · %3").arg(counted, expected, ShiftWording::differenceText(shift.difference)));
    m_difference->setWordWrap(true);
    const ReportTone tone = ShiftWording::differenceTone(shift.difference);
    Look::set(m_difference, tone == ReportTone::Short  ? "reportValueShort"
                            : tone == ReportTone::Over ? "reportValueOver"
                                                       : "reportValue");
    auto *report = new ReportView;
    report->setSections(ShiftReportPrint::sections(shift));
    QScrollArea *scroll = makeVerticalScroll(report, this);

    m_print->setObjectName(QStringLiteral("printShiftReport"));
    m_openNext->setObjectName(QStringLiteral("openNextShift"));
    m_signOut->setObjectName(QStringLiteral("signOutAfterShift"));
    Look::set(m_print, "action");
    for (QPushButton *button : {m_print, m_openNext, m_signOut})
        button->setAutoDefault(true);
    m_print->setDefault(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_signOut);
    buttons->addWidget(m_openNext);
    buttons->addStretch();
    buttons->addWidget(m_print);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(28, 24, 28, 24);
    layout->setSpacing(12);
    layout->addWidget(title);
    layout->addWidget(m_difference);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    setMinimumWidth(640);
    resize(760, 640);

    connect(m_print, &QPushButton::clicked, this, &ShiftClosedDialog::print);
    connect(m_openNext, &QPushButton::clicked, this, [this] { finish(Choice::OpenNext); });
    connect(m_signOut, &QPushButton::clicked, this, [this] { finish(Choice::SignOut); });
    m_print->setFocus();
}

void ShiftClosedDialog::print()
{
    const ShiftReportPrint report(m_shift, m_context.shopName(), m_context.shopAddress());
    report.openPrintPreview(this, ShiftReportPrint::paperWidth(m_context.settings()), [this](bool printed) {
        m_printed = m_printed || printed;
        // Printed: what is left is to sign out or hand over.
        if (printed) {
            m_signOut->setDefault(true);
            m_signOut->setFocus();
        }
    });
}

void ShiftClosedDialog::finish(Choice choice)
{
    m_choice = choice;
    accept();
}

void ShiftClosedDialog::keyPressEvent(QKeyEvent *event)
{
    if (event->modifiers() == Qt::NoModifier) {
        switch (event->key()) {
        case Qt::Key_P:
            print();
            return;
        case Qt::Key_N:
            finish(Choice::OpenNext);
            return;
        case Qt::Key_S:
            finish(Choice::SignOut);
            return;
        default:
            break;
        }
    }
    QDialog::keyPressEvent(event);
}

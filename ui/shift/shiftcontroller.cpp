#include "shiftcontroller.h"

#include "cashmovedialog.h"
#include "closeshiftdialog.h"
#include "openshiftdialog.h"
#include "shiftcloseddialog.h"
#include "shiftsapi.h"
#include "shiftwords.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QStatusBar>

ShiftController::ShiftController(TerminalContext &context, QWidget *window, QStatusBar *bar, QObject *parent)
    : QObject(parent), m_context(context), m_window(window), m_bar(new QWidget(bar)), m_line(new QLabel(m_bar)),
      m_cashMove(new QPushButton(tr("Cash in/out (F9)"), m_bar)), m_shiftButton(new QPushButton(m_bar))
{
    m_bar->setObjectName(QStringLiteral("shiftBar"));
    m_line->setObjectName(QStringLiteral("shiftLine"));
    m_cashMove->setObjectName(QStringLiteral("shiftCashMove"));
    m_shiftButton->setObjectName(QStringLiteral("shiftOpenClose"));
    // The status bar's buttons never take the focus from the sale being typed.
    for (QPushButton *button : {m_cashMove, m_shiftButton}) {
        button->setFocusPolicy(Qt::NoFocus);
        Look::set(button, "statusAction"); // as tall as the status bar's text, not a form's button
    }
    auto *row = new QHBoxLayout(m_bar);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(6);
    row->addWidget(m_line);
    row->addWidget(m_cashMove);
    row->addWidget(m_shiftButton);
    bar->addPermanentWidget(m_bar);

    connect(m_cashMove, &QPushButton::clicked, this, &ShiftController::cashInOut);
    connect(m_shiftButton, &QPushButton::clicked, this, &ShiftController::onShiftKey);
    auto *cashKey = new QShortcut(QKeySequence(Qt::Key_F9), window);
    connect(cashKey, &QShortcut::activated, this, &ShiftController::cashInOut);
    auto *shiftKey = new QShortcut(QKeySequence(Qt::Key_F10), window);
    connect(shiftKey, &QShortcut::activated, this, &ShiftController::onShiftKey);

    connect(&context, &TerminalContext::shiftChanged, this, &ShiftController::showStatus);
    connect(&context, &TerminalContext::shopChanged, this, &ShiftController::showStatus);
    connect(&context, &TerminalContext::shiftNeeded, this, [this] {
        if (!signedIn())
            return;
        // The server may know better (an admin closed the shift elsewhere): the one it had is gone.
        if (m_context.currentShift())
            m_context.setCurrentShift(std::nullopt);
        askToOpen(tr("A sale needs an open shift."));
    });
    connect(&context, &TerminalContext::userChanged, this, [this] {
        if (signedIn())
            return;
        // Signed out or locked: the shift stays open on the server for the person's next sign-in.
        ++m_session;
        m_ready = false;
        if (QDialog *open = dialog())
            open->done(QDialog::Rejected);
        m_context.setCurrentShift(std::nullopt);
    });
    showStatus();
}

bool ShiftController::signedIn() const
{
    return !m_context.user().name.isEmpty();
}

void ShiftController::start()
{
    const int session = ++m_session;
    m_ready = false;
    m_context.setCurrentShift(std::nullopt);
    ShopApi(m_context.api()).get().then(this, [this, session](const Answer<ShopInfo> &shop) {
        if (session != m_session)
            return;
        if (shop.ok())
            m_context.applyShop(*shop.value);
        ShiftsApi(m_context.api()).current().then(this, [this, session](const Answer<Shift> &answer) {
            if (session != m_session)
                return;
            m_ready = true;
            if (answer.ok()) {
                m_context.setCurrentShift(*answer.value); // resumed: the server kept it across a restart
                return;
            }
            showStatus();
            if (answer.httpStatus == 404 && m_context.needsShift())
                askToOpen(tr("This shop sells within shifts."));
        });
    });
}

QDialog *ShiftController::dialog() const
{
    return m_dialog && m_dialog->isVisible() ? m_dialog.data() : nullptr;
}

void ShiftController::show(QDialog *dialog)
{
    if (QDialog *open = this->dialog())
        open->done(QDialog::Rejected);
    m_dialog = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    DialogFocus::openAndRestore(dialog);
}

void ShiftController::askToOpen(const QString &why)
{
    if (!signedIn() || m_context.currentShift())
        return;
    if (qobject_cast<OpenShiftDialog *>(dialog()))
        return; // already asking
    show(new OpenShiftDialog(m_context, why, m_window));
}

void ShiftController::cashInOut()
{
    if (!signedIn() || !m_context.currentShift() || this->dialog())
        return;
    auto *dialog = new CashMoveDialog(m_context, m_context.currentShift()->id, m_window);
    connect(dialog, &CashMoveDialog::moved, this, [this] { emit m_context.cashDrawerNeeded(); });
    show(dialog);
}

void ShiftController::closeShift()
{
    if (!signedIn() || !m_context.currentShift() || this->dialog())
        return;
    auto *dialog = new CloseShiftDialog(m_context, *m_context.currentShift(), m_window);
    connect(dialog, &CloseShiftDialog::closed, this, &ShiftController::onClosed);
    show(dialog);
    emit m_context.cashDrawerNeeded(); // the drawer opens for the count
}

void ShiftController::onShiftKey()
{
    if (m_context.currentShift())
        closeShift();
    else if (!dialog())
        askToOpen();
}

void ShiftController::onClosed(const Shift &shift)
{
    auto *dialog = new ShiftClosedDialog(m_context, shift, m_window);
    connect(dialog, &QDialog::finished, this, [this, dialog] {
        switch (dialog->choice()) {
        case ShiftClosedDialog::Choice::OpenNext:
            // After this dialog is gone (the next one replaces it as the one shift dialog).
            QMetaObject::invokeMethod(
                this, [this] { askToOpen(); }, Qt::QueuedConnection);
            break;
        case ShiftClosedDialog::Choice::SignOut:
            emit signOutRequested();
            break;
        case ShiftClosedDialog::Choice::Stay:
            break;
        }
    });
    // The close dialog is still finishing: this one takes over once it is gone.
    QMetaObject::invokeMethod(
        this, [this, dialog] { show(dialog); }, Qt::QueuedConnection);
}

QString ShiftController::statusText() const
{
    return m_bar->isVisibleTo(m_bar->parentWidget()) ? m_line->text() : QString();
}

void ShiftController::showStatus()
{
    const std::optional<Shift> &shift = m_context.currentShift();
    const bool shown = signedIn() && (shift || m_context.shop().shiftsEnabled);
    m_bar->setVisible(shown);
    if (!shown)
        return;
    m_line->setText(shift ? ShiftWords::statusLine(*shift) : tr("No shift open"));
    m_cashMove->setVisible(shift.has_value());
    m_shiftButton->setText(shift ? tr("Close shift (F10)") : tr("Open shift (F10)"));
}

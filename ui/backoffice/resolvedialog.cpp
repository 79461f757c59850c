#include "resolvedialog.h"

#include "apiclient.h"
#include "clock.h"
#include "entities/user.h"
#include "money.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "usersapi.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace {

/// Sends what `send` sends with `token` as the client's session, then puts `restore` back. ApiClient reads the
/// token when it builds a request, synchronously, so no other screen's call goes out under `token`.
template <class Send> auto underSession(ApiClient &api, const QString &token, const QString &restore, Send send)
{
    api.setSessionToken(token);
    auto call = send();
    api.setSessionToken(restore);
    return call;
}

} // namespace

ResolveDialog::ResolveDialog(TerminalContext &context, const TransactionRecord &record, QWidget *parent)
    : QDialog(parent), m_context(context), m_transactionId(record.transactionId),
      m_success(new QRadioButton(tr("&Recharged (SUCCESS)"), this)),
      m_failed(new QRadioButton(tr("&Not recharged — refund (FAILED)"), this)), m_note(new QLineEdit(this)),
      m_name(new QLineEdit(this)), m_pin(new DigitsLineEdit(DigitsLineEdit::Kind::Digits, 8, this))
{
    setObjectName(QStringLiteral("resolveDialog"));
    setWindowTitle(tr("Resolve sale %1 by hand").arg(record.transactionId));

    const QString number = record.type == TransactionType::Voucher ? record.customerEmail : record.number;
    auto *summary = new QLabel(tr("Sale %1 · %2 %3 · wallet debit %4 · PENDING since %5 (IST)")
                                   .arg(QString::number(record.transactionId), record.operatorName, number,
                                        Money::formatIndian(record.paid), IstTime::formatMs(record.createdAtMs)),
                               this);
    summary->setObjectName(QStringLiteral("resolveSummary"));
    Look::set(summary, "strong");
    summary->setWordWrap(true);
    auto *explanation =
        new QLabel(tr("Check this sale on the upstream's dashboard first. Recharged ends it as sold: the money "
                      "stays paid. Not recharged ends it as failed and refunds %1 to the wallet once. Either "
                      "ends the sale for good and is written to the audit log with your note.")
                       .arg(Money::formatIndian(record.paid)),
                   this);
    Look::set(explanation, "hint");
    explanation->setWordWrap(true);

    m_success->setObjectName(QStringLiteral("resolveSuccess"));
    m_failed->setObjectName(QStringLiteral("resolveFailed"));
    // No outcome is chosen for the person: a stray Enter must not end a sale either way.
    auto *outcomes = new QButtonGroup(this);
    outcomes->addButton(m_success);
    outcomes->addButton(m_failed);
    m_note->setObjectName(QStringLiteral("resolveNote"));
    m_note->setMaxLength(kMaxNote);
    m_note->setPlaceholderText(tr("What the upstream's dashboard or statement shows"));
    m_name->setObjectName(QStringLiteral("resolveAdminName"));
    m_name->setText(context.user().name);
    m_pin->setObjectName(QStringLiteral("resolvePin"));
    m_pin->setEchoMode(QLineEdit::Password);

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("resolveError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);
    QLabel *statusError = FormErrors::makeLabel(this);
    QLabel *noteError = FormErrors::makeLabel(this);
    QLabel *nameError = FormErrors::makeLabel(this);
    QLabel *pinError = FormErrors::makeLabel(this);
    statusError->setObjectName(QStringLiteral("resolveError_status"));
    noteError->setObjectName(QStringLiteral("resolveError_note"));
    nameError->setObjectName(QStringLiteral("resolveError_name"));
    pinError->setObjectName(QStringLiteral("resolveError_pin"));
    m_errors->addField(QStringLiteral("status"), statusError);
    m_errors->addField(QStringLiteral("note"), noteError);
    m_errors->addField(QStringLiteral("name"), nameError);
    m_errors->addField(QStringLiteral("pin"), pinError);

    auto *buttons = new QDialogButtonBox(this);
    m_resolve = buttons->addButton(tr("Resol&ve"), QDialogButtonBox::AcceptRole);
    m_resolve->setObjectName(QStringLiteral("resolveConfirm"));
    m_resolve->setDefault(true);
    Look::set(m_resolve, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("resolveCancel"));

    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    auto *outcomeLabel = new QLabel(tr("What happened"), this);
    form->addRow(outcomeLabel, m_success);
    form->addRow(QString(), m_failed);
    form->addRow(QString(), statusError);
    auto *noteLabel = new QLabel(tr("N&ote"), this);
    noteLabel->setBuddy(m_note);
    form->addRow(noteLabel, m_note);
    form->addRow(QString(), noteError);
    auto *confirmHeading = new QLabel(tr("Confirm with an admin's PIN"), this);
    Look::set(confirmHeading, "strong");
    form->addRow(confirmHeading);
    auto *nameLabel = new QLabel(tr("Admin n&ame"), this);
    nameLabel->setBuddy(m_name);
    form->addRow(nameLabel, m_name);
    form->addRow(QString(), nameError);
    auto *pinLabel = new QLabel(tr("&PIN"), this);
    pinLabel->setBuddy(m_pin);
    form->addRow(pinLabel, m_pin);
    form->addRow(QString(), pinError);

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(summary);
    layout->addWidget(explanation);
    layout->addLayout(form);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(560);

    setTabOrder(m_success, m_failed);
    setTabOrder(m_failed, m_note);
    setTabOrder(m_note, m_name);
    setTabOrder(m_name, m_pin);
    setTabOrder(m_pin, m_resolve);
    setTabOrder(m_resolve, m_cancel);
    m_success->setFocus();

    connect(m_resolve, &QPushButton::clicked, this, &ResolveDialog::onResolveClicked);
    connect(m_cancel, &QPushButton::clicked, this, &ResolveDialog::reject);
    connect(m_pin, &DigitsLineEdit::refused, this,
            [this](const QString &reason) { m_errors->showAt(QStringLiteral("pin"), reason); });
}

ResolveDialog::~ResolveDialog() = default;

void ResolveDialog::reject()
{
    if (m_busy)
        return; // the answer must arrive here (and the confirming session end) before the dialog goes
    QDialog::reject();
}

void ResolveDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    // The style sheet (larger kiosk fonts) is applied by now: make room for what it needs.
    if (const int wanted = layout()->totalSizeHint().width(); wanted > width())
        resize(wanted, height());
    fitToContents();
}

void ResolveDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_resolve->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
    m_resolve->setText(busy ? tr("Resolving…") : tr("Resol&ve"));
}

void ResolveDialog::onResolveClicked()
{
    if (m_busy)
        return;
    m_errors->clear();
    if (!m_success->isChecked() && !m_failed->isChecked())
        m_errors->showAt(QStringLiteral("status"), tr("Choose what happened: recharged, or not recharged (refund)."),
                         m_success);
    if (m_note->text().trimmed().isEmpty())
        m_errors->showAt(
            QStringLiteral("note"),
            tr("Write a note: what the upstream's dashboard or statement shows (up to %1 characters).").arg(kMaxNote),
            m_note);
    if (m_name->text().trimmed().isEmpty())
        m_errors->showAt(QStringLiteral("name"), tr("Enter the admin's name."), m_name);
    if (m_pin->text().size() < 4)
        m_errors->showAt(QStringLiteral("pin"), tr("Enter the admin's PIN to confirm."), m_pin);
    if (QWidget *firstProblem = m_errors->firstProblem()) {
        fitToContents();
        firstProblem->setFocus();
        return;
    }
    setBusy(true);
    UsersApi(m_context.api())
        .signIn(m_name->text().trimmed(), m_pin->text())
        .then(this, [this](const Answer<UserSignIn> &answer) { onSignedIn(answer); });
}

void ResolveDialog::onSignedIn(const Answer<UserSignIn> &answer)
{
    m_pin->clear();
    if (!answer.ok()) {
        setBusy(false);
        const ApiError &error = *answer.error;
        m_errors->showAt(error.httpStatus() == 0 ? QString() : QStringLiteral("pin"), error.description());
        fitToContents();
        m_pin->setFocus();
        return;
    }
    m_confirmationToken = answer.value->token;
    if (!answer.value->user.isAdmin()) {
        signOutConfirmation();
        setBusy(false);
        m_errors->showAt(QStringLiteral("name"), tr("That user is not an admin: only an admin can resolve a sale."));
        fitToContents();
        m_name->setFocus();
        return;
    }
    const QString status = m_success->isChecked() ? QStringLiteral("SUCCESS") : QStringLiteral("FAILED");
    const QString note = m_note->text().trimmed();
    ApiClient &api = m_context.api();
    underSession(api, m_confirmationToken, m_context.user().sessionToken, [&] {
        return UpstreamApi(api).resolve(m_transactionId, status, note);
    }).then(this, [this](const Answer<TransactionRecord> &resolvedAnswer) { onResolved(resolvedAnswer); });
}

void ResolveDialog::onResolved(const Answer<TransactionRecord> &answer)
{
    signOutConfirmation();
    setBusy(false);
    if (!answer.ok()) {
        const ApiError &error = *answer.error;
        if (error.field() == QLatin1String("note") || error.field() == QLatin1String("status")) {
            m_errors->show(error);
        } else {
            m_errors->showAt(QString(), error.httpStatus() == 0
                                            ? tr("The server did not answer: %1").arg(error.description())
                                            : tr("Not resolved: %1").arg(error.description()));
        }
        fitToContents();
        return;
    }
    emit resolved(*answer.value);
    accept();
}

void ResolveDialog::fitToContents()
{
    QLayout *box = layout();
    box->activate();
    const int needed = box->hasHeightForWidth() ? box->totalHeightForWidth(width()) : box->totalSizeHint().height();
    if (needed > height())
        resize(width(), needed);
}

void ResolveDialog::signOutConfirmation()
{
    if (m_confirmationToken.isEmpty())
        return;
    ApiClient &api = m_context.api();
    underSession(api, m_confirmationToken, m_context.user().sessionToken, [&] { return UsersApi(api).signOut(); });
    m_confirmationToken.clear();
}

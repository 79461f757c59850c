#include "reasondialog.h"

#include "apierror.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

ReasonDialog::ReasonDialog(const QString &title, const QString &summary, const QString &actionText, int maxLength,
                           QWidget *parent)
    : QDialog(parent), m_reason(new QLineEdit(this))
{
    setObjectName(QStringLiteral("reasonDialog"));
    setWindowTitle(title);
    auto *summaryLabel = new QLabel(summary, this);
    Look::set(summaryLabel, "strong");
    summaryLabel->setWordWrap(true);
    m_reason->setObjectName(QStringLiteral("reasonText"));
    m_reason->setMaxLength(maxLength);

    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("reasonError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);
    QLabel *reasonError = FormErrors::makeLabel(this);
    m_errors->addField(QStringLiteral("reason"), reasonError);

    auto *buttons = new QDialogButtonBox(this);
    m_submit = buttons->addButton(actionText, QDialogButtonBox::AcceptRole);
    m_submit->setObjectName(QStringLiteral("reasonSubmit"));
    m_submit->setDefault(true);
    Look::set(m_submit, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);

    auto *form = new QFormLayout;
    auto *label = new QLabel(tr("&Reason"), this);
    label->setBuddy(m_reason);
    form->addRow(label, m_reason);
    form->addRow(QString(), reasonError);
    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(summaryLabel);
    layout->addLayout(form);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(520);
    m_reason->setFocus();

    connect(m_submit, &QPushButton::clicked, this, &ReasonDialog::onSubmit);
    connect(m_cancel, &QPushButton::clicked, this, &ReasonDialog::reject);
}

ReasonDialog::~ReasonDialog() = default;

QString ReasonDialog::reason() const
{
    return m_reason->text().trimmed();
}

void ReasonDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_submit->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
}

void ReasonDialog::showError(const ApiError &error)
{
    setBusy(false);
    m_errors->clear();
    m_errors->show(error);
}

void ReasonDialog::reject()
{
    if (!m_busy)
        QDialog::reject();
}

void ReasonDialog::onSubmit()
{
    if (m_busy)
        return;
    m_errors->clear();
    if (reason().isEmpty()) {
        m_errors->showAt(QStringLiteral("reason"), tr("Write the reason: it is kept with the change."), m_reason);
        m_reason->setFocus();
        return;
    }
    setBusy(true);
    emit submitted(reason());
}

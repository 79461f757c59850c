#include "shopformdialog.h"

#include "apierror.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

ShopFormDialog::ShopFormDialog(const QString &objectName, const QString &title, const QString &summary,
                               const QString &actionText, QWidget *parent)
    : QDialog(parent), m_form(new QFormLayout)
{
    setObjectName(objectName);
    setWindowTitle(title);
    auto *general = new QLabel(this);
    general->setObjectName(QStringLiteral("formError"));
    Look::set(general, "generalError");
    general->setWordWrap(true);
    general->hide();
    m_errors = std::make_unique<FormErrors>(general);

    auto *buttons = new QDialogButtonBox(this);
    m_action = buttons->addButton(actionText, QDialogButtonBox::AcceptRole);
    m_action->setObjectName(QStringLiteral("formSubmit"));
    m_action->setDefault(true);
    Look::set(m_action, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("formCancel"));

    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    if (!summary.isEmpty()) {
        auto *summaryLabel = new QLabel(summary, this);
        summaryLabel->setObjectName(QStringLiteral("formSummary"));
        Look::set(summaryLabel, "strong");
        summaryLabel->setWordWrap(true);
        layout->addWidget(summaryLabel);
    }
    layout->addLayout(m_form);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(540);

    connect(m_action, &QPushButton::clicked, this, [this] {
        if (!m_busy)
            submit();
    });
    connect(m_cancel, &QPushButton::clicked, this, &ShopFormDialog::reject);
}

ShopFormDialog::~ShopFormDialog() = default;

void ShopFormDialog::addRow(const QString &label, QWidget *input, const QString &field)
{
    auto *labelWidget = new QLabel(label, this);
    labelWidget->setBuddy(input);
    m_form->addRow(labelWidget, input);
    QLabel *error = FormErrors::makeLabel(this);
    m_errors->addField(field, error);
    m_form->addRow(QString(), error);
}

void ShopFormDialog::addWideRow(QWidget *widget)
{
    m_form->addRow(widget);
}

void ShopFormDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_action->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
}

void ShopFormDialog::showRefusal(const ApiError &error)
{
    setBusy(false);
    m_errors->show(error);
}

bool ShopFormDialog::focusFirstProblem()
{
    if (QWidget *problem = m_errors->firstProblem()) {
        problem->setFocus();
        return false;
    }
    return true;
}

void ShopFormDialog::reject()
{
    if (!m_busy)
        QDialog::reject();
}

#include "formerrors.h"

#include "apierror.h"
#include "widgets/look.h"

#include <QLabel>

FormErrors::FormErrors(QLabel *general) : m_general(general)
{}

void FormErrors::addField(const QString &field, QLabel *label)
{
    Look::set(label, "fieldError");
    m_fields.insert(field, label);
}

void FormErrors::show(const ApiError &error)
{
    showAt(error.field(), error.description());
}

void FormErrors::showAt(const QString &field, const QString &message)
{
    QLabel *label = m_fields.value(field, m_general);
    label->setText(message);
    label->setVisible(true);
}

void FormErrors::showAt(const QString &field, const QString &message, QWidget *input)
{
    showAt(field, message);
    if (!m_firstProblem)
        m_firstProblem = input;
}

void FormErrors::clear()
{
    m_firstProblem = nullptr;
    for (QLabel *label : std::as_const(m_fields))
        label->hide();
    m_general->hide();
}

bool FormErrors::hasErrors() const
{
    if (m_general->isVisible())
        return true;
    for (QLabel *label : m_fields) {
        if (label->isVisible())
            return true;
    }
    return false;
}

QLabel *FormErrors::makeLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("fieldError"));
    Look::set(label, "fieldError");
    label->setWordWrap(true);
    label->hide();
    return label;
}

#include "wrappedcheckbox.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>

WrappedCheckBox::WrappedCheckBox(const QString &text, QWidget *parent) : WrappedCheckBox(parent)
{
    setText(text);
}

WrappedCheckBox::WrappedCheckBox(QWidget *parent)
    : QWidget(parent), m_box(new QCheckBox(this)), m_label(new QLabel(this))
{
    m_label->setWordWrap(true);
    m_label->setBuddy(m_box);
    m_label->installEventFilter(this);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_box, 0, Qt::AlignTop);
    layout->addWidget(m_label, 1);
}

QString WrappedCheckBox::text() const
{
    return m_label->text();
}

void WrappedCheckBox::setText(const QString &text)
{
    m_label->setText(text);
    m_box->setAccessibleName(text);
}

bool WrappedCheckBox::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_label && event->type() == QEvent::MouseButtonRelease &&
        static_cast<QMouseEvent *>(event)->button() == Qt::LeftButton && m_box->isEnabled()) {
        m_box->setFocus(Qt::MouseFocusReason);
        m_box->toggle();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

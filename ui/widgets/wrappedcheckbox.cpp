#include "wrappedcheckbox.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>

WrappedCheckBox::WrappedCheckBox(const QString &text, QWidget *parent)
    : QWidget(parent), m_box(new QCheckBox(this)), m_label(new QLabel(text, this))
{
    m_box->setAccessibleName(text);
    m_label->setWordWrap(true);
    m_label->setBuddy(m_box);
    m_label->installEventFilter(this);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_box, 0, Qt::AlignTop);
    layout->addWidget(m_label, 1);
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

#include "look.h"

#include <QStyle>
#include <QWidget>

void Look::set(QWidget *widget, const char *look)
{
    widget->setProperty("look", QString::fromLatin1(look));
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
}

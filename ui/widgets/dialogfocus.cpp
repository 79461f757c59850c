#include "dialogfocus.h"

#include <QApplication>
#include <QDialog>
#include <QPointer>
#include <QWidget>

namespace DialogFocus {

void openAndRestore(QDialog *dialog)
{
    // Without a window manager that reactivates the parent (a kiosk's X session), the window under a
    // closed dialog stays inactive and every key is lost until it is clicked.
    QPointer<QWidget> previous = QApplication::focusWidget();
    if (!previous && dialog->parentWidget())
        previous = dialog->parentWidget();
    QObject::connect(dialog, &QDialog::finished, dialog, [previous] {
        if (!previous)
            return;
        QWidget *window = previous->window();
        window->activateWindow();
        QApplication::setActiveWindow(window);
        if (previous->isVisible() && previous->isEnabled())
            previous->setFocus(Qt::ActiveWindowFocusReason);
    });
    dialog->open();
}

} // namespace DialogFocus

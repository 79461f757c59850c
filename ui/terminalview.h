#pragma once

#include "terminalcontext.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QStackedWidget;

/// The signed-in terminal: a navigation list of the counter screens (and the back office for
/// admins), the TEST MODE banner and the screens themselves. F1…F6 jump to a screen.
class TerminalView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TerminalView)

public:
    TerminalView(TerminalContext &context, bool kiosk, QWidget *parent = nullptr);

    /// Shows the screen registered under `id` ("verify", "plans", "mobile", "dth", "voucher",
    /// "backoffice"); false if there is none (or it is hidden for this user).
    bool showScreen(const QString &id);
    /// The screen widget registered under `id`, or nullptr.
    QWidget *screen(const QString &id) const;
    /// Re-applies what the signed-in user may see (back office for admins only).
    void applyUser();
    /// Focuses the first field of the current screen (the first visible, enabled widget that
    /// takes Tab focus in its focus chain), e.g. after sign-in; never the Lock button.
    void focusCurrentScreen();

signals:
    void lockRequested();

private:
    struct Screen
    {
        QString id;
        QString title;
        QWidget *widget;
        bool adminOnly;
    };
    void addScreen(const QString &id, const QString &title, QWidget *widget, bool adminOnly);

    TerminalContext &m_context;
    bool m_kiosk;
    QLabel *m_banner;
    QListWidget *m_navigation;
    QStackedWidget *m_stack;
    QList<Screen> m_screens;
};

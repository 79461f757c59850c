#pragma once

// For GUI tests: a keyboard that types into whatever has the focus, as a person's does, and counts the keys.

#include <QApplication>
#include <QTest>
#include <QWidget>

/// Sends keys to the focused widget (or `fallback` when nothing has the focus) and counts each key event: a
/// test types a whole task from the keyboard and knows how many keys it took.
class Keyboard
{
public:
    explicit Keyboard(QWidget &fallback) : m_fallback(fallback) {}

    void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::keyClick(target(), key, modifiers);
        ++m_count;
    }
    /// One key per character of `text` (Latin-1).
    void type(const QString &text)
    {
        for (const QChar c : text) {
            QTest::keyClick(target(), c.toLatin1());
            ++m_count;
        }
    }
    int count() const { return m_count; }
    void reset() { m_count = 0; }

private:
    QWidget *target() const { return QApplication::focusWidget() ? QApplication::focusWidget() : &m_fallback; }

    QWidget &m_fallback;
    int m_count = 0;
};

#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;

/// A check box whose text wraps. QCheckBox never wraps its text, so one long sentence sets the
/// minimum width of the whole page around it (too wide for a 1280-px kiosk). Here the box itself
/// (checkBox(): focus, keys, object name, accessible name) has no text; the word-wrapped label
/// beside it says what it means and ticks it when clicked.
class WrappedCheckBox final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WrappedCheckBox)
    /// What ticking the box means (the label's text and the box's accessible name); a .ui form sets it.
    Q_PROPERTY(QString text READ text WRITE setText)

public:
    /// Without text yet (Designer's constructor): setText() says what the box means.
    explicit WrappedCheckBox(QWidget *parent = nullptr);
    WrappedCheckBox(const QString &text, QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &text);

    QCheckBox *checkBox() const { return m_box; }
    QLabel *label() const { return m_label; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QCheckBox *m_box;
    QLabel *m_label;
};

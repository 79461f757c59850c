#include "elidedlabel.h"

#include <QEvent>
#include <QFontMetrics>

namespace {

constexpr int kMinimumCharacters = 12; ///< what stays readable however narrow the row gets

} // namespace

ElidedLabel::ElidedLabel(QWidget *parent) : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString &text, const QString &shorter)
{
    m_fullText = text;
    m_shorter = shorter;
    setToolTip(text);
    updateGeometry();
    elide();
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins margins = contentsMargins();
    // A few pixels more than the advance: the last glyph of a bold text may reach past it.
    return {fontMetrics().horizontalAdvance(m_fullText) + margins.left() + margins.right() + 2 * margin() + 6,
            QLabel::sizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QSize full = sizeHint();
    return {qMin(full.width(), fontMetrics().averageCharWidth() * kMinimumCharacters), full.height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        updateGeometry(); // the style sheet's font (bold) needs its own width
        elide();
    }
}

void ElidedLabel::elide()
{
    const QFontMetrics metrics = fontMetrics();
    const int room = contentsRect().width() - 4; // as sizeHint() leaves for the last glyph
    const QString &fitting =
        metrics.horizontalAdvance(m_fullText) > room && !m_shorter.isEmpty() ? m_shorter : m_fullText;
    const QString shown = metrics.elidedText(fitting, Qt::ElideRight, room);
    if (shown != text())
        setText(shown);
}

#include "digitslineedit.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QRegularExpressionValidator>

namespace {

bool allDigits(const QString &text)
{
    for (const QChar c : text) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

bool hasDecimalSeparator(const QString &text)
{
    return text.contains(QLatin1Char('.')) || text.contains(QLatin1Char(','));
}

} // namespace

DigitsLineEdit::DigitsLineEdit(Kind kind, int maxDigits, QWidget *parent) : DigitsLineEdit(parent)
{
    m_kind = kind;
    setMaxLength(maxDigits);
}

DigitsLineEdit::DigitsLineEdit(QWidget *parent) : QLineEdit(parent)
{
    setInputMethodHints(Qt::ImhDigitsOnly);
    // The validator is the backstop for the paths keyPressEvent does not see (context-menu
    // paste, drag and drop): it keeps the text unchanged, inputRejected() says why.
    setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]*")), this));
    connect(this, &QLineEdit::inputRejected, this, [this] {
        const QString clip = QGuiApplication::clipboard()->text();
        refuse(allDigits(clip) ? QString() : clip);
    });
    connect(this, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty())
            clearPending();
    });
}

QString DigitsLineEdit::reasonFor(const QString &text) const
{
    if (m_kind == Kind::Rupees && hasDecimalSeparator(text)) {
        // What the field holds now, not a key to press: Backspace would take the clerk's last rupee digit
        // (typing "49.50" keeps 49; issue 27).
        const QString kept = QLineEdit::text();
        return kept.isEmpty() ? tr("Whole rupees only — the amount can't have paise.")
                              : tr("Whole rupees only — the amount stays ₹%1, without paise.").arg(kept);
    }
    if (!allDigits(text) && text.trimmed().isEmpty())
        return tr("Digits only — spaces can't go in this field.");
    if (!allDigits(text))
        return tr("Digits only — “%1” can't go in this field.").arg(text.trimmed().left(20));
    return tr("At most %n digits.", nullptr, maxLength());
}

void DigitsLineEdit::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Paste)) {
        const QString text = QGuiApplication::clipboard()->text();
        if (!allDigits(text) || tooLong(text.size())) {
            refuse(text);
            event->accept();
            return;
        }
        clearPending();
        QLineEdit::keyPressEvent(event);
        return;
    }
    const Qt::KeyboardModifiers commands = Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier;
    const QString text = event->text();
    const bool typed = !text.isEmpty() && text.at(0).isPrint() && !(event->modifiers() & commands);
    if (!typed) {
        // Backspace, Delete and the like are edits: after one the clerk has seen the reason.
        if (event->key() == Qt::Key_Backspace || event->key() == Qt::Key_Delete || event->matches(QKeySequence::Cut))
            clearPending();
        QLineEdit::keyPressEvent(event);
        return;
    }
    if (!allDigits(text) || refusalPending() || tooLong(text.size())) {
        refuse(refusalPending() && allDigits(text) ? QString() : text);
        event->accept();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void DigitsLineEdit::refuse(const QString &text)
{
    // Empty `text`: the pending reason again (digits after a separator) or the length limit.
    const QString reason = text.isEmpty() && refusalPending() ? m_pendingReason : reasonFor(text);
    if (m_kind == Kind::Rupees && hasDecimalSeparator(text) &&
        !text.contains(QRegularExpression(QStringLiteral("[0-9]"))))
        m_pendingReason = reason; // a typed separator: the digits that follow are paise
    emit refused(reason);
}

bool DigitsLineEdit::tooLong(qsizetype count) const
{
    return maxLength() > 0 && text().size() - selectedText().size() + count > maxLength();
}

void DigitsLineEdit::clearPending()
{
    if (m_pendingReason.isEmpty())
        return;
    m_pendingReason.clear();
    emit refusalCleared();
}

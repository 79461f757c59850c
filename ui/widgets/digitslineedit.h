#pragma once

#include <QLineEdit>

class QKeyEvent;

/// A line edit for digits only (phone and subscriber numbers, whole-rupee amounts) that never
/// drops input silently: a key or a paste that is not all digits, or that would exceed the
/// maximum length, leaves the text as it was and emits refused() with a reason for people.
/// In rupees mode a '.' or ',' means the clerk started typing paise, so the digits after it are
/// refused too (typing "49.50" keeps "49", never "4950") until the clerk edits the text
/// (Backspace, Delete, a paste or clear()); while that lasts refusalPending() is true.
class DigitsLineEdit final : public QLineEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DigitsLineEdit)

public:
    enum class Kind
    {
        Digits, ///< a number made of digits (phone, subscriber number)
        Rupees  ///< an amount in whole rupees: decimals are explained as "no paise"
    };

    /// Digits of any count (Designer's constructor: a .ui form sets maxLength and, for rupees, setKind()).
    explicit DigitsLineEdit(QWidget *parent = nullptr);
    DigitsLineEdit(Kind kind, int maxDigits, QWidget *parent = nullptr);

    Kind kind() const { return m_kind; }
    /// Digits or whole rupees; the text is left as it is.
    void setKind(Kind kind) { m_kind = kind; }

    /// True after a refused decimal separator until the clerk edits the text.
    bool refusalPending() const { return m_pendingReason.size() > 0; }
    /// The reason shown while refusalPending() (empty otherwise).
    const QString &pendingReason() const { return m_pendingReason; }

    /// Why `text` cannot be entered here (empty if it is all digits). For tests and messages.
    QString reasonFor(const QString &text) const;

signals:
    /// Input was refused; the text is unchanged. `reason` is a sentence for people.
    void refused(const QString &reason);
    /// The clerk edited the text after a refusal: the reason may go away.
    void refusalCleared();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    /// Emits refused(); a decimal separator in rupees mode starts the pending refusal.
    void refuse(const QString &text);
    /// Whether inserting `count` characters would go past maxLength().
    bool tooLong(qsizetype count) const;
    void clearPending();

    Kind m_kind = Kind::Digits;
    QString m_pendingReason;
};

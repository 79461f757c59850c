#pragma once

#include <QHash>
#include <QPointer>
#include <QString>

class ApiError;
class QLabel;
class QWidget;

/// Shows API errors in plain words next to the field they concern: each form registers a
/// label per spec field name ("phone_number", "amount", …) and one general label for errors
/// without a field. Clearing hides them all.
class FormErrors
{
public:
    /// `general` shows errors that name no registered field.
    explicit FormErrors(QLabel *general);
    /// Registers the label under `field`'s input (hidden until an error names that field) and gives it the
    /// "fieldError" look.
    void addField(const QString &field, QLabel *label);
    /// Shows the error at its field (or the general label).
    void show(const ApiError &error);
    /// Shows a local (client-side) message at a field.
    void showAt(const QString &field, const QString &message);
    /// The same, for a form checked before it is sent: @p input is the widget to fix, focused by the caller when it
    /// is the first problem since clear() (firstProblem()).
    void showAt(const QString &field, const QString &message, QWidget *input);
    /// The input of the first problem shown since clear() with showAt(field, message, input); null when none.
    QWidget *firstProblem() const { return m_firstProblem; }
    void clear();
    /// True if any error is showing.
    bool hasErrors() const;

    /// A red, word-wrapped label for field errors, initially hidden.
    static QLabel *makeLabel(QWidget *parent);

private:
    QLabel *m_general;
    QHash<QString, QLabel *> m_fields;
    QPointer<QWidget> m_firstProblem; ///< see firstProblem()
};

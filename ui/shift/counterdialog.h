#pragma once

#include "widgets/formerrors.h"

#include <QDialog>
#include <QList>

class QGridLayout;
class QLabel;
class QPushButton;
class QVBoxLayout;

/// The frame of the counter's small dialogs (the shift dialogs of issue 28), in the terminal's looks: a title,
/// what the dialog is for, the error in red at the top, labelled fields as tall as the sign-in page's with their
/// own error lines, and a blue button that says what it does. Keyboard-first: Enter in a field moves to the next
/// field and, in the last, presses the main button; Esc cancels (not while an answer is awaited).
class CounterDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CounterDialog)

public:
    CounterDialog(const QString &title, const QString &intro, QWidget *parent);

    QLabel *titleLabel() const { return m_title; }
    QLabel *introLabel() const { return m_intro; }
    QLabel *errorLabel() const { return m_general; }
    QPushButton *acceptButton() const { return m_accept; }
    QPushButton *cancelButton() const { return m_cancel; }
    bool isBusy() const { return m_busy; }

    /// Ignored while busy: the answer must arrive here first.
    void reject() override;

protected:
    /// Adds the row `label` [input] [extra] and an error line under the input for API errors naming `field` (may be
    /// empty: none). The input joins the Enter order. Returns the row's error label.
    QLabel *addRow(const QString &label, QWidget *input, const QString &field, QWidget *extra = nullptr);
    /// A widget across the form's columns (a total, a note).
    void addSpanningRow(QWidget *widget);
    /// `inputs` (inside a row added with addSpanningRow) join the Enter and Tab order, in this order.
    void addToEnterOrder(const QList<QWidget *> &inputs);
    /// The layout under the form and above the buttons (results, lists).
    QVBoxLayout *body() const { return m_body; }
    /// Names the main button (and the cancel button; empty hides it).
    void setActions(const QString &acceptText, const QString &cancelText);
    /// While busy the buttons are off and the main one says `busyText`.
    void setBusy(bool busy, const QString &busyText = {});
    FormErrors &errors() { return m_errors; }
    /// Shows the errors added since errors().clear() and focuses the first problem's input; false if there were none.
    bool showProblems();
    /// The main button was pressed (or Enter in the last field): check, then send.
    virtual void onAccepted() = 0;

    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    QLabel *m_title;
    QLabel *m_intro;
    QLabel *m_general;
    FormErrors m_errors;
    QGridLayout *m_form;
    QVBoxLayout *m_body;
    QPushButton *m_accept;
    QPushButton *m_cancel;
    QString m_acceptText;
    QList<QWidget *> m_inputs; ///< in Enter (and Tab) order
    bool m_busy = false;
};

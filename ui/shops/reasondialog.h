#pragma once

#include <QDialog>

#include <memory>

class ApiError;
class FormErrors;
class QLineEdit;
class QPushButton;

/// Asks for the words of a step that needs a reason (issue 30: suspending a shop, rejecting a fund request): a
/// summary of what it is about, one line of at most `maxLength` characters (required), and the step's button. The
/// caller makes the call on submitted(), keeps the dialog busy meanwhile, and closes it or shows the server's refusal
/// (showError()). The reason field is "reasonText", the button "reasonSubmit".
class ReasonDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReasonDialog)

public:
    ReasonDialog(const QString &title, const QString &summary, const QString &actionText, int maxLength,
                 QWidget *parent = nullptr);
    ~ReasonDialog() override;

    QString reason() const;
    /// While busy the buttons are off and Esc does nothing (the answer is on its way).
    void setBusy(bool busy);
    /// Shows a refusal of the server (at the reason field when it names `reason`) and ends busy.
    void showError(const ApiError &error);

public slots:
    void reject() override;

signals:
    /// The person gave a reason (trimmed, not empty) and pressed the button.
    void submitted(const QString &reason);

private:
    void onSubmit();

    QLineEdit *m_reason;
    QPushButton *m_submit;
    QPushButton *m_cancel;
    std::unique_ptr<FormErrors> m_errors;
    bool m_busy = false;
};

#pragma once

#include "aadhaarapi.h"
#include "terminal/aadhaarflow.h"
#include "terminalcontext.h"

#include <QWidget>

#include <memory>

class FormErrors;
class QCheckBox;

namespace Ui {
class VerifyPage;
}

/// "Verify customer": the view of the Aadhaar OTP flow (api-v1.md endpoints 1-3, api-conventions.md "Aadhaar OTP
/// flow"), whose states and server calls live in AadhaarFlow; this class only shows them and forwards the clerk's keys.
/// Nothing is sent before the consent box is ticked; ticking it initiates a transaction and shows its captcha. The
/// number is typed in groups of 4 with a live Verhoeff check; Request OTP sends number and captcha answer; the OTP
/// step counts down the 10-minute validity (mm:ss) and the tries left. When the server says to wait (429
/// Retry-After), the message counts the seconds down and Request OTP / Resend comes back at 0. On
/// success only the masked number (XXXX XXXX 1234) is shown and the typed number is cleared. In test mode a side
/// panel shows the sandbox SMS outbox (AadhaarApi::sandboxSms) so the clerk can read the OTP.
class VerifyPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyPage)

public:
    explicit VerifyPage(TerminalContext &context, QWidget *parent = nullptr);
    ~VerifyPage() override;

    /// Back to the start for the next customer: consent unticked, number, captcha and transaction forgotten.
    void reset();
    /// The Aadhaar transaction in progress; 0 before consent and after success.
    qint64 transactionId() const { return m_flow->transactionId(); }

    /// The digits of `text` (at most 12) grouped 4-4-4 with single blanks: "2345 6789 0123".
    static QString groupDigits(const QString &text);
    /// "XXXX XXXX " + the last 4 digits of `number` (any blanks ignored); empty for fewer than 4 digits.
    static QString maskNumber(const QString &number) { return AadhaarFlow::maskNumber(number); }

signals:
    /// The customer was authenticated; carries only the masked number.
    void customerVerified(const QString &maskedNumber);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void onConsentToggled(bool checked);
    void onNumberEdited(const QString &text);
    void onStepChanged(AadhaarFlow::Step step);
    void onOtpSent();
    void onFailed(const AadhaarFlow::Problem &problem);
    /// The sentence for people of `problem` (the flow itself has no texts).
    static QString describe(const AadhaarFlow::Problem &problem);
    void onCaptchaLoaded(const QByteArray &png);
    void onVerified(const QString &masked);
    void onTick();
    /// Shows the time left of a 429 wait; false when none is counting down.
    bool showThrottle();
    void clearInputs();
    void updateNumberCheck();
    void updateTries();
    void updateButtons();
    static QString triesLeftText(int left);
    void refreshSms();

    TerminalContext &m_context;
    AadhaarFlow *m_flow;
    AadhaarApi m_api;
    std::unique_ptr<FormErrors> m_errors;
    std::unique_ptr<Ui::VerifyPage> m_ui; ///< the form of verifypage.ui
    QCheckBox *m_consent = nullptr;       ///< the box of the consent form's WrappedCheckBox

    QString m_lastDigits; ///< digits of the number field before the latest edit
};

#pragma once

#include "terminalcontext.h"

#include <QDeadlineTimer>
#include <QTimer>
#include <QWidget>

#include <memory>

class ApiError;
class FormErrors;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QUrl;

/// "Verify customer": Aadhaar OTP authentication (api-v1.md endpoints 1-3, api-conventions.md "Aadhaar OTP flow").
/// Nothing is sent before the consent box is ticked; ticking it initiates a transaction and shows its captcha. The
/// number is typed in groups of 4 with a live Verhoeff check; Request OTP sends number and captcha answer; the OTP
/// step counts down the 10-minute validity (mm:ss) and the tries left. When the server says to wait (429
/// Retry-After), the message counts the seconds down and Request OTP / Resend comes back at 0. On
/// success only the masked number (XXXX XXXX 1234) is shown and the typed number is cleared. In test mode a side
/// panel shows the sandbox SMS outbox (GET /api/v1/sandbox/sms) so the clerk can read the OTP.
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
    qint64 transactionId() const { return m_transactionId; }

    /// The digits of `text` (at most 12) grouped 4-4-4 with single blanks: "2345 6789 0123".
    static QString groupDigits(const QString &text);
    /// "XXXX XXXX " + the last 4 digits of `number` (any blanks ignored); empty for fewer than 4 digits.
    static QString maskNumber(const QString &number);

signals:
    /// The customer was authenticated; carries only the masked number.
    void customerVerified(const QString &maskedNumber);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void onConsentToggled(bool checked);
    void onNumberEdited(const QString &text);
    void onRequestOtpClicked();
    void onResendClicked();
    void onVerifyClicked();
    void onTick();
    /// Starts counting down a 429 wait of `seconds` on Request OTP (`resend` false) or Resend.
    void startThrottle(int seconds, bool resend);
    /// Shows the time left of the wait (or ends it at 0); false when no wait is counting down.
    bool tickThrottle();
    void endThrottle();

    void initiate();
    void loadCaptcha(const QUrl &url, int generation);
    void sendOtpRequest(const QString &number, const QString &captcha, bool resend);
    void onOtpRequestFailed(const ApiError &error, int retryAfterSeconds, bool resend);
    void onVerifyFailed(const ApiError &error);
    void restartFlow(const QString &why);
    void showSuccess(const QString &number);
    void updateNumberCheck();
    void updateTries();
    void setBusy(bool busy);
    static QString triesLeftText(int left);
    void refreshSms();

    TerminalContext &m_context;
    std::unique_ptr<FormErrors> m_errors;
    QStackedWidget *m_steps;
    QWidget *m_requestStep;
    QWidget *m_otpStep;
    QWidget *m_successStep;

    QCheckBox *m_consent;
    QWidget *m_numberArea;
    QLineEdit *m_number;
    QLabel *m_numberCheck;
    QLabel *m_captchaImage;
    QPushButton *m_captchaRefresh;
    QLineEdit *m_captcha;
    QPushButton *m_requestOtp;

    QLabel *m_otpSent;
    QLineEdit *m_otp;
    QLabel *m_otpCountdown;
    QLabel *m_otpTries;
    QPushButton *m_verify;
    QPushButton *m_resend;
    QPushButton *m_startOver;

    QLabel *m_maskedNumber;
    QLabel *m_successMessage;
    QPushButton *m_another;

    QWidget *m_sandboxPanel = nullptr;
    QListWidget *m_smsList = nullptr;
    QLabel *m_smsState = nullptr;

    QTimer m_tick;
    QDeadlineTimer m_otpDeadline;
    QDeadlineTimer m_resendDeadline;
    /// A 429 wait being counted down: until when, on which action, for which number.
    struct Throttle
    {
        QDeadlineTimer deadline{QDeadlineTimer::Forever};
        bool resend = false;
        QString number;
        bool active() const { return !deadline.isForever(); }
    } m_throttle;
    QString m_lastDigits;  ///< digits of the number field before the latest edit
    QString m_sentNumber;  ///< the number the OTP was sent for, kept only until success or reset (for Resend)
    QString m_sentCaptcha; ///< the captcha answer that was accepted (Resend sends it again)
    qint64 m_transactionId = 0;
    int m_generation = 0; ///< bumped on every new transaction; stale answers are dropped
    int m_triesLeft = 0;
    bool m_busy = false;
};

#pragma once

#include "aadhaarapi.h"

#include <QDeadlineTimer>
#include <QObject>
#include <QTimer>

#include <optional>

class ApiClient;

/// The Aadhaar OTP flow of the "Verify customer" screen without its widgets (api-v1.md endpoints 1-3,
/// api-conventions.md "Aadhaar OTP flow"; issue 14): consent → number and captcha → OTP → verified. It checks the
/// input, calls the server through AadhaarApi, keeps the transaction, the tries left (read from the error's
/// `attempts_left`, never from prose), the 10-minute OTP validity and a 429 wait (Retry-After, per Aadhaar number,
/// on Request OTP or on Resend), and restarts with a new captcha when the server closed the transaction.
/// VerifyPage only shows it. Stale answers (after a reset or a restart) are dropped.
class AadhaarFlow final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AadhaarFlow)

public:
    /// What the screen shows.
    enum class Step
    {
        Consent, ///< nothing sent; waiting for the customer's consent
        Number,  ///< a transaction is open: number and captcha answer
        Otp,     ///< the OTP was sent
        Verified ///< authenticated; only the masked number is kept
    };

    /// Why an action did not go on; `field` of Problem says where the screen shows it.
    enum class Failure
    {
        NumberIncomplete, ///< fewer than 12 digits typed
        NumberInvalid,    ///< 12 digits failing the rules (or the server said invalid_aadhaar_number)
        NoMobileLinked,   ///< no mobile is linked with the number
        CaptchaIncomplete,
        CaptchaLoading, ///< Request OTP before the transaction exists
        CaptchaWrong,   ///< captcha_mismatch with tries left (Problem::attemptsLeft, -1 when unknown)
        OtpIncomplete,
        OtpWrong,       ///< otp_mismatch with tries left
        OtpExpired,     ///< Resend sends a new one
        StartFailed,    ///< initiate-transaction failed (Problem::error)
        CaptchaClosed,  ///< three wrong captcha answers: restarted with a new captcha
        CaptchaExpired, ///< restarted with a new captcha
        OtpClosed,      ///< three wrong OTPs: restarted with a new captcha
        FlowEnded,      ///< any other 409: restarted with a new captcha (Problem::error says why)
        Throttled,      ///< 429: a wait counts down (throttleSecondsLeft(), isThrottleOnResend())
        Other           ///< any other error (Problem::error)
    };

    struct Problem
    {
        Failure failure;
        QString field; ///< "aadhaar_number", "captcha_value", "otp_value" or empty (the general message)
        int attemptsLeft = -1;
        std::optional<ApiError> error;
    };

    static constexpr int kAadhaarDigits = 12;
    static constexpr int kCodeDigits = 6; ///< captcha and OTP
    static constexpr int kOtpTries = 3;

    explicit AadhaarFlow(ApiClient &api, QObject *parent = nullptr);

    Step step() const { return m_step; }
    /// The Aadhaar transaction in progress; 0 before consent, while a new one starts, and after success.
    qint64 transactionId() const { return m_transactionId; }
    /// True while a request-otp or verify-otp answer is awaited.
    bool isBusy() const { return m_busy; }
    /// OTP tries left (Otp step).
    int triesLeft() const { return m_triesLeft; }
    /// Seconds the sent OTP stays valid (Otp step); 0 once expired.
    qint64 otpSecondsLeft() const;
    /// Seconds until Resend is allowed again after a 429 on Resend; 0 when it is.
    qint64 resendSecondsLeft() const;
    /// Seconds of a 429 wait still to count down (0: none); isThrottleOnResend() says on which action.
    qint64 throttleSecondsLeft() const;
    bool isThrottleOnResend() const { return m_throttle.resend; }
    /// Whether Request OTP may be pressed now.
    bool canRequestOtp() const;
    /// The message of the last OTP sent (names the masked mobile).
    const QString &otpMessage() const { return m_otpMessage; }

    /// The customer consented: opens a transaction (Number step) and loads its captcha.
    void giveConsent();
    /// Back to Consent for the next customer: transaction, number and captcha forgotten.
    void reset();
    /// A new transaction with a new captcha, back at the Number step (New captcha, Start over).
    void restart();
    /// The number field changed to `digits`: another number need not wait for the previous one's 429.
    void numberEdited(const QString &digits);
    /// Sends the OTP for `digits` (12) with the captcha answer; problems come as failed().
    void requestOtp(const QString &digits, const QString &captcha);
    /// Sends the OTP again for the same number (Otp step).
    void resendOtp();
    /// Checks the 6-digit OTP.
    void verifyOtp(const QString &otp);

    /// "XXXX XXXX " + the last 4 digits of `number` (any blanks ignored); empty for fewer than 4 digits.
    static QString maskNumber(const QString &number);
    /// The digits of `text`.
    static QString digitsOf(const QString &text);

signals:
    void stepChanged(AadhaarFlow::Step step);
    void busyChanged(bool busy);
    /// A new transaction is being opened; its captcha follows as captchaLoaded() or captchaFailed().
    void captchaLoading();
    /// The PNG bytes of the transaction's captcha.
    void captchaLoaded(const QByteArray &png);
    /// The captcha image could not be fetched.
    void captchaFailed();
    /// An action failed; for the restarting failures the flow is already back at the Number step.
    void failed(const AadhaarFlow::Problem &problem);
    /// An OTP was sent (first or again); otpMessage() says where to.
    void otpSent();
    /// The OTP tries left changed.
    void triesLeftChanged(int left);
    /// Every second while the OTP step or a wait lasts: countdowns changed.
    void ticked();
    /// A 429 wait ended (or was dropped): its message goes and the button comes back.
    void throttleEnded();
    /// Authenticated; carries only the masked number.
    void verified(const QString &maskedNumber);

private:
    void setStep(Step step);
    void setBusy(bool busy);
    void initiate();
    void loadCaptcha(const QString &location, int generation);
    void sendOtpRequest(const QString &number, const QString &captcha, bool resend);
    void onOtpRequestFailed(const ApiError &error, int retryAfterSeconds, bool resend, const QString &number);
    void onVerifyFailed(const ApiError &error);
    /// Restarts with a new captcha and reports `failure`.
    void restartAfter(Failure failure, const std::optional<ApiError> &error = std::nullopt);
    void startThrottle(int seconds, bool resend, const QString &number);
    void endThrottle();
    void onTick();
    void fail(Failure failure, const QString &field, int attemptsLeft = -1,
              const std::optional<ApiError> &error = std::nullopt);
    /// Forgets the transaction and everything typed for it; bumps the generation.
    void forget();

    AadhaarApi m_api;
    Step m_step = Step::Consent;
    QTimer m_tick;
    QDeadlineTimer m_otpDeadline;
    QDeadlineTimer m_resendDeadline;
    struct Throttle
    {
        QDeadlineTimer deadline{QDeadlineTimer::Forever};
        bool resend = false;
        QString number;
        bool active() const { return !deadline.isForever(); }
    } m_throttle;
    QString m_sentNumber;  ///< the number the OTP was sent for, kept only until success or reset (for Resend)
    QString m_sentCaptcha; ///< the accepted captcha answer (Resend sends it again)
    QString m_otpMessage;
    qint64 m_transactionId = 0;
    int m_generation = 0; ///< bumped on every new transaction; stale answers are dropped
    int m_triesLeft = 0;
    bool m_busy = false;
};

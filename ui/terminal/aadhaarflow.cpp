#include "aadhaarflow.h"

#include "apiclient.h"
#include "validators.h"

namespace {

constexpr qint64 kOtpValidityMs = 10 * 60'000; // OTP lifetime from the send

qint64 secondsLeft(const QDeadlineTimer &deadline)
{
    return deadline.isForever() ? 0 : (deadline.remainingTime() + 999) / 1000;
}

const QString kNumberField = QStringLiteral("aadhaar_number");
const QString kCaptchaField = QStringLiteral("captcha_value");
const QString kOtpField = QStringLiteral("otp_value");

} // namespace

AadhaarFlow::AadhaarFlow(ApiClient &api, QObject *parent) : QObject(parent), m_api(api)
{
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &AadhaarFlow::onTick);
}

QString AadhaarFlow::digitsOf(const QString &text)
{
    QString digits;
    for (const QChar c : text) {
        if (c >= u'0' && c <= u'9')
            digits.append(c);
    }
    return digits;
}

QString AadhaarFlow::maskNumber(const QString &number)
{
    const QString digits = digitsOf(number);
    if (digits.size() < 4)
        return {};
    return QStringLiteral("XXXX XXXX ") + digits.right(4);
}

qint64 AadhaarFlow::otpSecondsLeft() const
{
    return secondsLeft(m_otpDeadline);
}

qint64 AadhaarFlow::resendSecondsLeft() const
{
    return secondsLeft(m_resendDeadline);
}

qint64 AadhaarFlow::throttleSecondsLeft() const
{
    return m_throttle.active() ? secondsLeft(m_throttle.deadline) : 0;
}

bool AadhaarFlow::canRequestOtp() const
{
    return m_step == Step::Number && !m_busy && (!m_throttle.active() || m_throttle.resend);
}

void AadhaarFlow::setStep(Step step)
{
    if (m_step == step)
        return;
    m_step = step;
    emit stepChanged(step);
}

void AadhaarFlow::setBusy(bool busy)
{
    m_busy = busy;
    emit busyChanged(busy);
}

void AadhaarFlow::forget()
{
    ++m_generation;
    m_tick.stop();
    m_throttle = Throttle();
    m_transactionId = 0;
    m_sentNumber.clear();
    m_sentCaptcha.clear();
}

void AadhaarFlow::giveConsent()
{
    if (m_step != Step::Consent)
        return;
    setStep(Step::Number);
    initiate();
}

void AadhaarFlow::reset()
{
    forget();
    m_busy = false;
    setStep(Step::Consent);
    emit busyChanged(false);
}

void AadhaarFlow::restart()
{
    m_tick.stop();
    m_throttle = Throttle();
    setStep(Step::Number);
    initiate();
}

void AadhaarFlow::initiate()
{
    const int generation = ++m_generation;
    m_transactionId = 0;
    m_sentNumber.clear();
    m_sentCaptcha.clear();
    emit captchaLoading();
    m_api.initiate().then(this, [this, generation](const Answer<AadhaarStep> &answer) {
        if (generation != m_generation)
            return;
        if (!answer.ok()) {
            emit captchaFailed();
            fail(Failure::StartFailed, QString(), -1, answer.error);
            return;
        }
        m_transactionId = answer.value->transactionId;
        loadCaptcha(answer.value->captcha.value_or(QString()), generation);
    });
}

void AadhaarFlow::loadCaptcha(const QString &location, int generation)
{
    if (location.isEmpty()) {
        emit captchaFailed();
        return;
    }
    ApiCall *call = m_api.captchaImage(location);
    connect(call, &ApiCall::finished, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return;
        if (result.ok())
            emit captchaLoaded(result.body);
        else
            emit captchaFailed();
    });
}

void AadhaarFlow::numberEdited(const QString &digits)
{
    if (m_throttle.active() && !m_throttle.resend && digits != m_throttle.number)
        endThrottle();
}

void AadhaarFlow::requestOtp(const QString &digits, const QString &captcha)
{
    if (!canRequestOtp())
        return;
    if (!Validators::isAadhaarNumber(digits))
        return fail(digits.size() < kAadhaarDigits ? Failure::NumberIncomplete : Failure::NumberInvalid, kNumberField);
    if (captcha.size() != kCodeDigits)
        return fail(Failure::CaptchaIncomplete, kCaptchaField);
    if (m_transactionId == 0)
        return fail(Failure::CaptchaLoading, kCaptchaField);
    sendOtpRequest(digits, captcha, false);
}

void AadhaarFlow::resendOtp()
{
    if (m_busy || m_sentNumber.isEmpty())
        return;
    sendOtpRequest(m_sentNumber, m_sentCaptcha, true);
}

void AadhaarFlow::sendOtpRequest(const QString &number, const QString &captcha, bool resend)
{
    setBusy(true);
    const int generation = m_generation;
    // Read as ApiResult, not through TypedCall::then: a 429 needs its Retry-After.
    ApiCall *call = m_api.requestOtp(m_transactionId, number, captcha).call();
    connect(call, &ApiCall::finished, this, [this, generation, number, captcha, resend](const ApiResult &result) {
        if (generation != m_generation)
            return;
        setBusy(false);
        const Answer<AadhaarStep> answer = AnswerDecoding::decode<AadhaarStep>(result, &AadhaarStep::fromJson);
        if (!answer.ok()) {
            if (result.error)
                onOtpRequestFailed(*result.error, result.retryAfterSeconds, resend, number);
            else
                fail(Failure::Other, QString(), -1, answer.error);
            return;
        }
        m_sentNumber = number;
        m_sentCaptcha = captcha;
        m_otpMessage = answer.value->msg;
        m_otpDeadline = QDeadlineTimer(kOtpValidityMs);
        m_resendDeadline = QDeadlineTimer();
        if (!resend) {
            m_triesLeft = kOtpTries;
            emit triesLeftChanged(m_triesLeft);
        }
        setStep(Step::Otp);
        emit otpSent();
        m_tick.start();
        emit ticked();
    });
}

void AadhaarFlow::onOtpRequestFailed(const ApiError &error, int retryAfterSeconds, bool resend, const QString &number)
{
    const QString &reason = error.reason();
    if (error.httpStatus() == 429) {
        const int wait = qMax(1, retryAfterSeconds);
        if (resend)
            m_resendDeadline = QDeadlineTimer(qint64(wait) * 1000);
        startThrottle(wait, resend, number);
        return fail(Failure::Throttled, resend ? kOtpField : kNumberField);
    }
    if (reason == QLatin1String("captcha_mismatch")) {
        const int left = AadhaarAttempts::left(error).value_or(-1);
        if (left == 0)
            return restartAfter(Failure::CaptchaClosed);
        return fail(Failure::CaptchaWrong, kCaptchaField, left);
    }
    if (reason == QLatin1String("captcha_expired"))
        return restartAfter(Failure::CaptchaExpired);
    if (reason == QLatin1String("invalid_aadhaar_number"))
        return fail(Failure::NumberInvalid, kNumberField);
    if (reason == QLatin1String("no_mobile_linked"))
        return fail(Failure::NoMobileLinked, kNumberField);
    if (error.httpStatus() == 409)
        return restartAfter(Failure::FlowEnded, error);
    fail(Failure::Other, QString(), -1, error);
}

void AadhaarFlow::verifyOtp(const QString &otp)
{
    if (m_busy || m_transactionId == 0 || m_step != Step::Otp)
        return;
    if (m_throttle.resend)
        m_throttle = Throttle(); // the Resend button keeps counting; this answer gets the message line
    if (otp.size() != kCodeDigits)
        return fail(Failure::OtpIncomplete, kOtpField);
    setBusy(true);
    const int generation = m_generation;
    m_api.verifyOtp(m_transactionId, otp).then(this, [this, generation](const Answer<AadhaarStep> &answer) {
        if (generation != m_generation)
            return;
        setBusy(false);
        if (!answer.ok())
            return onVerifyFailed(*answer.error);
        const QString masked = maskNumber(answer.value->aadhaarNumber.value_or(m_sentNumber));
        forget();
        setStep(Step::Verified);
        emit verified(masked);
    });
}

void AadhaarFlow::onVerifyFailed(const ApiError &error)
{
    const QString &reason = error.reason();
    if (reason == QLatin1String("otp_mismatch")) {
        m_triesLeft = AadhaarAttempts::left(error).value_or(m_triesLeft - 1);
        emit triesLeftChanged(m_triesLeft);
        if (m_triesLeft <= 0)
            return restartAfter(Failure::OtpClosed);
        return fail(Failure::OtpWrong, kOtpField, m_triesLeft);
    }
    if (reason == QLatin1String("otp_expired"))
        return fail(Failure::OtpExpired, kOtpField);
    if (error.httpStatus() == 409)
        return restartAfter(Failure::FlowEnded, error);
    fail(Failure::Other, QString(), -1, error);
}

void AadhaarFlow::restartAfter(Failure failure, const std::optional<ApiError> &error)
{
    restart();
    fail(failure, QString(), -1, error);
}

void AadhaarFlow::fail(Failure failure, const QString &field, int attemptsLeft, const std::optional<ApiError> &error)
{
    emit failed(Problem{failure, field, attemptsLeft, error});
}

void AadhaarFlow::startThrottle(int seconds, bool resend, const QString &number)
{
    m_throttle.deadline = QDeadlineTimer(qint64(seconds) * 1000);
    m_throttle.resend = resend;
    m_throttle.number = number;
    m_tick.start();
    emit ticked();
}

void AadhaarFlow::endThrottle()
{
    if (!m_throttle.active())
        return;
    m_throttle = Throttle();
    emit throttleEnded();
}

void AadhaarFlow::onTick()
{
    if (m_throttle.active() && secondsLeft(m_throttle.deadline) <= 0)
        endThrottle();
    if (m_step != Step::Otp && !m_throttle.active())
        m_tick.stop();
    emit ticked();
}

#include "aadhaarservice.h"

#include "aadhaarvault.h"
#include "apierror.h"
#include "captcharenderer.h"
#include "clock.h"
#include "entities/aadhaarstep.h"
#include "sandboxresidents.h"
#include "smsgateway.h"
#include "store/database.h"
#include "validators.h"

#include <QLoggingCategory>
#include <QRandomGenerator>

#include <array>
#include <stdexcept>

namespace {

Q_LOGGING_CATEGORY(lcAadhaar, "rechargedesk.aadhaar")

constexpr int kTokenBytes = 24; // 192 bits
constexpr qsizetype kTokenLength = 32;

} // namespace

QString AadhaarService::newCaptchaToken()
{
    std::array<quint32, kTokenBytes / 4> words{};
    QRandomGenerator::system()->fillRange(words.data(), qsizetype(words.size()));
    const QByteArray bytes(reinterpret_cast<const char *>(words.data()), kTokenBytes);
    return QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

namespace {

bool isTokenShaped(const QString &token)
{
    if (token.size() != kTokenLength)
        return false;
    for (const QChar c : token) {
        const bool ok =
            (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') || c == u'-' || c == u'_';
        if (!ok)
            return false;
    }
    return true;
}

/// The value hashed for a captcha or OTP: bound to its token / transaction so equal answers never hash alike.
QByteArray boundValue(const QString &binding, const QString &secret)
{
    return binding.toLatin1() + ':' + secret.toLatin1();
}

QString attemptsLeftText(int left)
{
    if (left <= 0)
        return QStringLiteral("no attempts left; the transaction is closed, start a new one with initiate-transaction");
    return left == 1 ? QStringLiteral("1 attempt left") : QStringLiteral("%1 attempts left").arg(left);
}

} // namespace

ApiError AadhaarService::notFound(qint64 transactionId)
{
    return ApiError::notFound(QStringLiteral("transaction_not_found"),
                              QStringLiteral("no Aadhaar authentication transaction %1").arg(transactionId));
}

ApiError AadhaarService::closedError(const AadhaarTransactionRow &row)
{
    if (row.status == AadhaarStatus::AuthenticationSuccess)
        return ApiError::conflict(QStringLiteral("already_authenticated"),
                                  QStringLiteral("transaction %1 is already authenticated; start a new one for "
                                                 "another verification")
                                      .arg(row.id));
    if (row.closedReason == QLatin1String("expired"))
        return ApiError::conflict(QStringLiteral("transaction_expired"),
                                  QStringLiteral("transaction %1 has expired; start a new one with "
                                                 "initiate-transaction")
                                      .arg(row.id));
    if (row.closedReason == QLatin1String("upstream"))
        return ApiError::conflict(QStringLiteral("transaction_closed"),
                                  QStringLiteral("transaction %1 was closed by the upstream; start a new one with "
                                                 "initiate-transaction")
                                      .arg(row.id));
    const QString why = row.closedReason == QLatin1String("captcha_attempts")
                            ? QStringLiteral("after %1 wrong captcha answers").arg(AadhaarService::kMaxCaptchaAttempts)
                            : QStringLiteral("after %1 wrong OTPs").arg(AadhaarService::kMaxOtpAttempts);
    return ApiError::conflict(QStringLiteral("transaction_closed"),
                              QStringLiteral("transaction %1 was closed %2; start a new one with "
                                             "initiate-transaction")
                                  .arg(row.id)
                                  .arg(why));
}

namespace {

QByteArray retryAfterSeconds(qint64 waitMs)
{
    return QByteArray::number(qMax<qint64>(1, (waitMs + 999) / 1000));
}

} // namespace

AadhaarService::AadhaarService(Database &db, const AadhaarVault *vault, SmsGateway &sandboxSms, const Clock &clock,
                               QObject *parent)
    : QObject(parent), m_db(db), m_vault(vault), m_sandboxSms(sandboxSms), m_clock(clock)
{
    m_sweepTimer.setInterval(int(kSweepIntervalMs));
    connect(&m_sweepTimer, &QTimer::timeout, this, &AadhaarService::onSweepTimer);
}

void AadhaarService::start()
{
    onSweepTimer();
    m_sweepTimer.start();
}

void AadhaarService::onSweepTimer()
{
    try {
        sweepExpired();
    } catch (const std::exception &e) {
        qCWarning(lcAadhaar, "sweep of expired Aadhaar transactions failed, retrying later: %s", e.what());
    }
}

int AadhaarService::sweepExpired()
{
    const qint64 now = m_clock.nowMs();
    WriteTransaction transaction(m_db);
    const int closed = AadhaarRepository(m_db).closeExpired(now, now - kSendWindowMs);
    transaction.commit();
    if (closed > 0)
        qCInfo(lcAadhaar, "closed %d expired Aadhaar transactions and erased their numbers", closed);
    return closed;
}

void AadhaarService::requireAvailable(const AuthContext &caller) const
{
    if (caller.mode == Mode::Live)
        throw noUidaiGateway();
    if (m_vault == nullptr)
        throw ApiError::gatewayUnavailable(QStringLiteral("aadhaar_vault_unavailable"),
                                           QStringLiteral("Aadhaar verification is not available on this server: its "
                                                          "key store could not be opened"));
}

ApiError AadhaarService::noUidaiGateway()
{
    return ApiError::gatewayUnavailable(QStringLiteral("no_uidai_gateway"),
                                        QStringLiteral("no UIDAI authentication gateway is configured for live keys: "
                                                       "configure an upstream that offers Aadhaar OTP with "
                                                       "`rechargedesk upstream set --url BASE_URL --key-id ID "
                                                       "--key-secret-file FILE` or in Back office → Settings → "
                                                       "Upstream, or use a test key for the sandbox"));
}

void AadhaarService::requireAadhaarNumber(const QString &aadhaarNumber)
{
    if (!Validators::isAadhaarNumber(aadhaarNumber))
        throw ApiError::badRequest(QStringLiteral("aadhaar_number"), QStringLiteral("invalid_aadhaar_number"),
                                   QStringLiteral("aadhaar_number must be 12 digits, the first 2-9, with a valid "
                                                  "Verhoeff check digit"));
}

AadhaarTransactionRow AadhaarService::load(Database &db, const AuthContext &caller, qint64 transactionId)
{
    std::optional<AadhaarTransactionRow> row = AadhaarRepository(db).find(transactionId, caller.accountId);
    if (!row || row->mode != caller.mode)
        throw notFound(transactionId);
    return *row;
}

AadhaarTransactionRow AadhaarService::loadUnfinished(const AuthContext &caller, qint64 transactionId,
                                                     AadhaarRepository &repository, WriteTransaction &transaction,
                                                     qint64 now)
{
    AadhaarTransactionRow row = load(m_db, caller, transactionId);
    const bool open = row.status == AadhaarStatus::CaptchaGenerated || row.status == AadhaarStatus::OtpGenerated;
    if (open && now >= row.expiresAtMs) {
        repository.close(row.id, QStringLiteral("expired"), now);
        transaction.commit(); // the closure stands although this request fails
        row.closedReason = QStringLiteral("expired");
        row.status = AadhaarStatus::Closed;
    }
    if (row.status == AadhaarStatus::Closed || row.status == AadhaarStatus::AuthenticationSuccess)
        throw closedError(row);
    return row;
}

AadhaarStepResult AadhaarService::initiate(const AuthContext &caller)
{
    requireAvailable(caller);
    const QString digits = CaptchaRenderer::randomDigits(*QRandomGenerator::system(), kCaptchaDigits);
    const QByteArray png = CaptchaRenderer(QRandomGenerator::system()).renderPng(digits);
    if (png.isEmpty())
        throw std::runtime_error("the captcha image could not be drawn (is there a QGuiApplication?)");

    const qint64 now = m_clock.nowMs();
    AadhaarTransactionRow row;
    row.accountId = caller.accountId;
    row.mode = caller.mode;
    row.keyId = caller.keyId;
    row.status = AadhaarStatus::CaptchaGenerated;
    row.captchaToken = newCaptchaToken();
    row.captchaHash = m_vault->keyedHash("captcha", boundValue(row.captchaToken, digits));
    row.captchaExpiresAtMs = now + kCaptchaValidityMs;
    row.expiresAtMs = now + kTransactionLifetimeMs;
    row.createdAtMs = now;
    row.updatedAtMs = now;

    AadhaarRepository repository(m_db);
    WriteTransaction transaction(m_db);
    repository.closeExpired(now, now - kSendWindowMs);
    row.id = repository.insert(row, png);
    if (caller.mode == Mode::Test)
        repository.insertSandboxCaptcha(row.id, digits);
    transaction.commit();

    AadhaarStepResult result;
    result.transactionId = row.id;
    result.status = AadhaarStatus::CaptchaGenerated;
    result.captchaToken = row.captchaToken;
    result.msg = QStringLiteral("Captcha generated. Send the %1 digits shown in the captcha image as captcha_value, "
                                "with the Aadhaar number, to request-otp within %2 minutes.")
                     .arg(kCaptchaDigits)
                     .arg(kCaptchaValidityMs / 60'000);
    return result;
}

AadhaarStepResult AadhaarService::requestOtp(const AuthContext &caller, qint64 transactionId,
                                             const QString &aadhaarNumber, const QString &captchaValue)
{
    requireAvailable(caller);
    requireAadhaarNumber(aadhaarNumber);
    if (!Validators::isAsciiDigits(captchaValue))
        throw ApiError::badRequest(QStringLiteral("captcha_value"), QStringLiteral("invalid_captcha_value"),
                                   QStringLiteral("captcha_value must be the digits shown in the captcha image"));

    AadhaarRepository repository(m_db);
    WriteTransaction transaction(m_db);
    const qint64 now = m_clock.nowMs();
    AadhaarTransactionRow row = loadUnfinished(caller, transactionId, repository, transaction, now);

    const bool resend = row.status == AadhaarStatus::OtpGenerated;
    if (resend) {
        const std::optional<QString> sealed = m_vault->unseal(row.sealedNumber, QByteArray::number(row.id));
        if (!sealed)
            throw std::runtime_error("the sealed Aadhaar number of a transaction cannot be opened");
        if (*sealed != aadhaarNumber)
            throw ApiError::conflict(QStringLiteral("aadhaar_number_changed"),
                                     QStringLiteral("an OTP was already sent for another Aadhaar number in transaction "
                                                    "%1; start a new transaction for this number")
                                         .arg(row.id),
                                     QStringLiteral("aadhaar_number"));
    } else if (now >= row.captchaExpiresAtMs) {
        throw ApiError::badRequest(QStringLiteral("captcha_value"), QStringLiteral("captcha_expired"),
                                   QStringLiteral("the captcha expired %1 minutes after it was drawn; start a new "
                                                  "transaction with initiate-transaction")
                                       .arg(kCaptchaValidityMs / 60'000));
    }

    const QByteArray captchaHash = m_vault->keyedHash("captcha", boundValue(row.captchaToken, captchaValue));
    if (!AadhaarVault::constantTimeEquals(captchaHash, row.captchaHash)) {
        const int left = kMaxCaptchaAttempts - (row.captchaFailures + 1);
        repository.recordCaptchaFailure(row.id, now);
        if (left <= 0)
            repository.close(row.id, QStringLiteral("captcha_attempts"), now);
        transaction.commit();
        throw AadhaarAttempts::withLeft(
            ApiError::badRequest(QStringLiteral("captcha_value"), QStringLiteral("captcha_mismatch"),
                                 QStringLiteral("captcha_value does not match the captcha image; ") +
                                     attemptsLeftText(left)),
            left);
    }

    const std::optional<QString> mobile = SandboxResidents::linkedMobile(aadhaarNumber);
    if (!mobile)
        throw ApiError::badRequest(QStringLiteral("aadhaar_number"), QStringLiteral("no_mobile_linked"),
                                   QStringLiteral("no mobile number is linked with Aadhaar number %1, so no OTP can "
                                                  "be sent; the resident must link a mobile number at an Aadhaar "
                                                  "enrolment centre")
                                       .arg(AadhaarVault::mask(aadhaarNumber)));

    const QByteArray numberHash = m_vault->keyedHash("aadhaar-otp-throttle", aadhaarNumber.toLatin1());
    const QList<qint64> sends = repository.sendTimes(numberHash, now - kSendWindowMs);
    qint64 waitMs = 0;
    if (sends.size() >= kMaxSendsPerWindow)
        waitMs = sends.at(sends.size() - kMaxSendsPerWindow) + kSendWindowMs - now;
    if (!sends.isEmpty())
        waitMs = qMax(waitMs, sends.last() + kResendGapMs - now);
    if (waitMs > 0)
        throw ApiError::rateLimited(QStringLiteral("otp_throttled"),
                                    QStringLiteral("OTPs to one Aadhaar number are limited to one every %1 seconds "
                                                   "and %2 per %3 minutes; retry in %4 seconds")
                                        .arg(kResendGapMs / 1000)
                                        .arg(kMaxSendsPerWindow)
                                        .arg(kSendWindowMs / 60'000)
                                        .arg(QString::fromLatin1(retryAfterSeconds(waitMs))))
            .withHeader("Retry-After", retryAfterSeconds(waitMs));

    const QString otp = CaptchaRenderer::randomDigits(*QRandomGenerator::system(), kOtpDigits);
    row.status = AadhaarStatus::OtpGenerated;
    row.sealedNumber = m_vault->seal(aadhaarNumber, QByteArray::number(row.id));
    row.maskedNumber = AadhaarVault::mask(aadhaarNumber);
    row.maskedMobile = QStringLiteral("XXXXXX") + mobile->right(4);
    row.otpHash = m_vault->keyedHash("otp", boundValue(QString::number(row.id), otp));
    row.otpExpiresAtMs = now + kOtpValidityMs;
    row.expiresAtMs = qMax(row.expiresAtMs, row.otpExpiresAtMs);
    repository.storeOtp(row, now);
    repository.insertSend(numberHash, row.id, now);
    SmsMessage sms;
    sms.accountId = caller.accountId;
    sms.transactionId = row.id;
    sms.mobile = *mobile;
    sms.text = QStringLiteral("%1 is the OTP to verify Aadhaar %2 (transaction %3). It is valid for %4 minutes. Do "
                              "not share it with anyone. -RechargeDesk sandbox")
                   .arg(otp, row.maskedNumber)
                   .arg(row.id)
                   .arg(kOtpValidityMs / 60'000);
    sms.createdAtMs = now;
    m_sandboxSms.send(sms);
    if (caller.mode == Mode::Test)
        repository.setSandboxOtp(row.id, otp);
    transaction.commit();
    qCInfo(lcAadhaar, "Aadhaar transaction %lld: OTP %s to %s for %s", row.id, resend ? "resent" : "sent",
           qPrintable(row.maskedMobile), qPrintable(row.maskedNumber));

    AadhaarStepResult result;
    result.transactionId = row.id;
    result.status = AadhaarStatus::OtpGenerated;
    result.aadhaarNumber = aadhaarNumber;
    result.msg =
        QStringLiteral("OTP %1 to the mobile number %2 linked with Aadhaar number %3; it is valid for %4 "
                       "minutes.")
            .arg(resend ? QStringLiteral("sent again") : QStringLiteral("sent"), row.maskedMobile, row.maskedNumber)
            .arg(kOtpValidityMs / 60'000);
    return result;
}

AadhaarStepResult AadhaarService::verifyOtp(const AuthContext &caller, qint64 transactionId, const QString &otpValue)
{
    requireAvailable(caller);
    if (!Validators::isAsciiDigits(otpValue))
        throw ApiError::badRequest(QStringLiteral("otp_value"), QStringLiteral("invalid_otp_value"),
                                   QStringLiteral("otp_value must be the digits of the OTP sent by SMS"));

    AadhaarRepository repository(m_db);
    WriteTransaction transaction(m_db);
    const qint64 now = m_clock.nowMs();
    AadhaarTransactionRow row = loadUnfinished(caller, transactionId, repository, transaction, now);
    if (row.status == AadhaarStatus::CaptchaGenerated)
        throw ApiError::conflict(
            QStringLiteral("otp_not_requested"),
            QStringLiteral("no OTP was requested in transaction %1 yet; call request-otp first").arg(row.id));
    if (now >= row.otpExpiresAtMs)
        throw ApiError::badRequest(QStringLiteral("otp_value"), QStringLiteral("otp_expired"),
                                   QStringLiteral("the OTP expired %1 minutes after it was sent; request a new one "
                                                  "with request-otp")
                                       .arg(kOtpValidityMs / 60'000));

    const QByteArray otpHash = m_vault->keyedHash("otp", boundValue(QString::number(row.id), otpValue));
    if (!AadhaarVault::constantTimeEquals(otpHash, row.otpHash)) {
        const int left = kMaxOtpAttempts - (row.otpFailures + 1);
        repository.recordOtpFailure(row.id, now);
        if (left <= 0)
            repository.close(row.id, QStringLiteral("otp_attempts"), now);
        transaction.commit();
        if (left <= 0)
            qCInfo(lcAadhaar, "Aadhaar transaction %lld closed after %d wrong OTPs for %s", row.id, kMaxOtpAttempts,
                   qPrintable(row.maskedNumber));
        throw AadhaarAttempts::withLeft(
            ApiError::badRequest(QStringLiteral("otp_value"), QStringLiteral("otp_mismatch"),
                                 QStringLiteral("otp_value is not the OTP that was sent; ") + attemptsLeftText(left)),
            left);
    }

    const std::optional<QString> number = m_vault->unseal(row.sealedNumber, QByteArray::number(row.id));
    if (!number)
        throw std::runtime_error("the sealed Aadhaar number of a transaction cannot be opened");
    repository.markAuthenticated(row.id, now);
    transaction.commit();
    qCInfo(lcAadhaar, "Aadhaar transaction %lld: %s authenticated; sealed number erased", row.id,
           qPrintable(row.maskedNumber));

    AadhaarStepResult result;
    result.transactionId = row.id;
    result.status = AadhaarStatus::AuthenticationSuccess;
    result.aadhaarNumber = *number;
    result.msg = QStringLiteral("Aadhaar number %1 authenticated by OTP.").arg(row.maskedNumber);
    return result;
}

std::optional<QByteArray> AadhaarService::captchaPng(const QString &token)
{
    if (!isTokenShaped(token))
        return std::nullopt;
    return AadhaarRepository(m_db).captchaPng(token, m_clock.nowMs());
}

AadhaarSandboxSecrets AadhaarService::sandboxSecrets(const AuthContext &caller, qint64 transactionId)
{
    const AadhaarTransactionRow row = load(m_db, caller, transactionId);
    const std::optional<AadhaarSandboxSecrets> secrets = AadhaarRepository(m_db).sandboxSecrets(row.id);
    if (!secrets)
        throw notFound(transactionId);
    return *secrets;
}

#pragma once

#include "aadhaarrepository.h"
#include "auth/authcontext.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

class AadhaarVault;
class ApiError;
class Clock;
class AadhaarRepository;
class Database;
class WriteTransaction;
class SmsGateway;

/// What one step of the flow answers (api-v1.md endpoints 1-3); the controller turns it into the spec's
/// `aadhaar_authentication` entity.
struct AadhaarStepResult
{
    qint64 transactionId = 0;
    AadhaarStatus status = AadhaarStatus::CaptchaGenerated;
    QString msg;           ///< for people; names only masked numbers
    QString aadhaarNumber; ///< the full number: request-otp and verify-otp only
    QString captchaToken;  ///< initiate only: the unguessable name of the captcha image
};

/// The Aadhaar OTP flow (api-v1.md endpoints 1-3, api-conventions.md "Aadhaar OTP flow"): initiate draws a 6-digit
/// captcha, request-otp checks it and sends a 6-digit OTP to the mobile linked with the Aadhaar number, verify-otp
/// checks the OTP. Captcha and OTP are each valid 10 minutes with 3 tries, stored only as keyed hashes; OTP sends
/// are throttled per Aadhaar number (60 s apart, 5 per 30 minutes). The full number is kept only sealed
/// (AadhaarVault), only while the status is OTP_GENERATED; success, closing and the periodic sweep erase it.
/// A transaction closes kTransactionLifetimeMs after initiate, or when its current OTP expires if that is later.
///
/// Test keys use the sandbox residents (SandboxResidents) and the given sandbox SMS gateway; live keys get 503 here
/// (their flows go through an AadhaarGateway, issue 13). Every step is one database transaction on the calling thread;
/// a failing step writes nothing except the attempt it counts. Errors are thrown as ApiError (see each function).
class AadhaarService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AadhaarService)

public:
    static constexpr qint64 kCaptchaValidityMs = 10 * 60 * 1000;
    static constexpr qint64 kOtpValidityMs = 10 * 60 * 1000;
    static constexpr qint64 kTransactionLifetimeMs = 30 * 60 * 1000;
    static constexpr int kMaxCaptchaAttempts = 3;
    static constexpr int kMaxOtpAttempts = 3;
    static constexpr qint64 kResendGapMs = 60 * 1000;
    static constexpr qint64 kSendWindowMs = 30 * 60 * 1000;
    static constexpr int kMaxSendsPerWindow = 5;
    static constexpr qint64 kSweepIntervalMs = 60 * 1000;
    static constexpr int kCaptchaDigits = 6;
    static constexpr int kOtpDigits = 6;

    /// @p vault may be null (its key file could not be opened): every step then answers 503. @p sandboxSms receives
    /// the OTP messages of test keys. None is owned; all must outlive the service.
    AadhaarService(Database &db, const AadhaarVault *vault, SmsGateway &sandboxSms, const Clock &clock,
                   QObject *parent = nullptr);

    /// Sweeps expired transactions now and then every kSweepIntervalMs (real time; expiry itself follows the Clock).
    void start();

    /// Endpoint 1: a new transaction in CAPTCHA_GENERATED with a freshly drawn captcha (PNG stored for the captcha
    /// URL). Throws 503 GATEWAY_ERROR for live keys or without a vault; std::runtime_error when no image can be
    /// drawn (no QGuiApplication).
    AadhaarStepResult initiate(const AuthContext &caller);

    /// Endpoint 2: checks the captcha answer and sends an OTP; called again in OTP_GENERATED with the same number
    /// and captcha answer it resends. Throws 400 invalid_aadhaar_number / invalid_captcha_value / captcha_expired /
    /// captcha_mismatch (attempts left; the third closes the transaction) / no_mobile_linked, 404 for a transaction
    /// of another account, 409 when closed, expired, already authenticated or given another number, 429 with
    /// Retry-After (seconds) when OTP sends to the number are throttled, 503 for live keys.
    AadhaarStepResult requestOtp(const AuthContext &caller, qint64 transactionId, const QString &aadhaarNumber,
                                 const QString &captchaValue);

    /// Endpoint 3: checks the OTP; on success answers AUTHENTICATION_SUCCESS with the number and erases it in the
    /// same database transaction. Throws 400 invalid_otp_value / otp_expired / otp_mismatch (attempts left; the
    /// third closes the transaction), 404 for another account's transaction, 409 before request-otp, after success,
    /// when closed or expired, 503 for live keys.
    AadhaarStepResult verifyOtp(const AuthContext &caller, qint64 transactionId, const QString &otpValue);

    /// The captcha PNG named by @p token while its transaction is open and the captcha unexpired; nullopt otherwise
    /// (including malformed tokens). Needs no caller: the token is the credential.
    std::optional<QByteArray> captchaPng(const QString &token);

    /// The clear captcha and latest OTP of the caller's test-mode transaction (sandbox endpoint). Throws 404 when
    /// the transaction is not the caller's or has no sandbox values (live).
    AadhaarSandboxSecrets sandboxSecrets(const AuthContext &caller, qint64 transactionId);

    /// Closes expired transactions (erasing their sealed numbers) and forgets OTP sends older than the throttle
    /// window. Returns the number closed. Throws DatabaseError.
    int sweepExpired();

    /// The unguessable name of a new captcha image: 192 random bits, base64url (32 characters).
    static QString newCaptchaToken();
    /// 404 transaction_not_found for @p transactionId.
    static ApiError notFound(qint64 transactionId);
    /// 409 saying why @p row (closed or authenticated) takes no more steps.
    static ApiError closedError(const AadhaarTransactionRow &row);
    /// 503 no_uidai_gateway for live keys without an upstream, saying how to configure one.
    static ApiError noUidaiGateway();
    /// Throws 400 invalid_aadhaar_number unless @p aadhaarNumber is 12 digits, first 2-9, Verhoeff-valid.
    static void requireAadhaarNumber(const QString &aadhaarNumber);

private:
    void requireAvailable(const AuthContext &caller) const;
    AadhaarTransactionRow load(Database &db, const AuthContext &caller, qint64 transactionId);
    /// The caller's transaction, loaded inside `transaction`, when it can still take a step. One
    /// past its expiry is closed first (committed, so the closure stands); then a closed or
    /// authenticated one throws ApiError 409 saying why.
    AadhaarTransactionRow loadUnfinished(const AuthContext &caller, qint64 transactionId, AadhaarRepository &repository,
                                         WriteTransaction &transaction, qint64 now);
    void onSweepTimer();

    Database &m_db;
    const AadhaarVault *m_vault;
    SmsGateway &m_sandboxSms;
    const Clock &m_clock;
    QTimer m_sweepTimer;
};

#pragma once

#include "auth/authcontext.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

class Database;

/// States of an Aadhaar authentication transaction as stored. The first three are the spec's (api-v1.md, "States
/// and transitions"); Closed is internal (too many wrong answers, or expired) and never appears in a response.
enum class AadhaarStatus
{
    CaptchaGenerated,
    OtpGenerated,
    AuthenticationSuccess,
    Closed
};

namespace AadhaarStatusNames {
/// "CAPTCHA_GENERATED", "OTP_GENERATED", "AUTHENTICATION_SUCCESS" or "CLOSED".
QString name(AadhaarStatus status);
/// The inverse of name(); nullopt for anything else.
std::optional<AadhaarStatus> fromName(const QString &name);
} // namespace AadhaarStatusNames

/// One row of `aadhaar_transactions` (migration 2). Secrets are kept only as keyed hashes; the Aadhaar number only
/// sealed (AadhaarVault), and only while the status is OtpGenerated. Times are UTC milliseconds since the epoch.
struct AadhaarTransactionRow
{
    qint64 id = 0;
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    QString keyId;
    AadhaarStatus status = AadhaarStatus::CaptchaGenerated;
    QString closedReason; ///< why a Closed transaction was closed: "captcha_attempts", "otp_attempts", "expired",
                          ///< "upstream" (a live flow the upstream closed)
    QString captchaToken; ///< the unguessable part of the captcha URL
    QByteArray captchaHash;
    qint64 captchaExpiresAtMs = 0;
    int captchaFailures = 0;
    QByteArray sealedNumber; ///< AadhaarVault::seal() output; empty when erased or not yet given
    QString maskedNumber;    ///< "XXXX XXXX 1234" once a number was given
    QString maskedMobile;    ///< "XXXXXX1234" once an OTP was sent
    QByteArray otpHash;      ///< empty until an OTP is sent, and again once the flow ended
    qint64 otpExpiresAtMs = 0;
    int otpFailures = 0;
    qint64 expiresAtMs = 0; ///< the transaction closes (and its sealed number is erased) at this instant
    qint64 createdAtMs = 0;
    qint64 updatedAtMs = 0;
};

/// The clear captcha and OTP of a test-mode transaction, for the sandbox endpoint. Never written in live mode.
struct AadhaarSandboxSecrets
{
    QString captchaValue;
    std::optional<QString> otpValue;
};

/// SQL of the Aadhaar OTP flow: transactions, OTP send log (throttling), sandbox secrets. Write calls must run inside
/// the caller's database transaction. All functions throw DatabaseError on storage failure.
class AadhaarRepository
{
public:
    explicit AadhaarRepository(Database &db) : m_db(db) {}

    /// Inserts a new transaction with its captcha PNG (stored base64); returns its id.
    qint64 insert(const AadhaarTransactionRow &row, const QByteArray &captchaPng);
    /// The account's transaction @p id, locked for update on PostgreSQL; nullopt if it is not the account's.
    std::optional<AadhaarTransactionRow> find(qint64 id, qint64 accountId);
    /// The captcha PNG of @p token while its transaction is open and the captcha unexpired at @p nowMs.
    std::optional<QByteArray> captchaPng(const QString &token, qint64 nowMs);

    /// Counts one more wrong captcha answer.
    void recordCaptchaFailure(qint64 id, qint64 nowMs);
    /// Counts one more wrong OTP.
    void recordOtpFailure(qint64 id, qint64 nowMs);
    /// Moves the transaction to OtpGenerated with a new OTP hash, the sealed number and the masked forms.
    void storeOtp(const AadhaarTransactionRow &row, qint64 nowMs);
    /// Moves the transaction to AuthenticationSuccess and erases the sealed number, the OTP hash and the captcha,
    /// and in test mode the clear captcha and OTP and the text of its sandbox SMS (issue 12).
    void markAuthenticated(qint64 id, qint64 nowMs);
    /// Closes the transaction for @p reason with the erasure of markAuthenticated().
    void close(qint64 id, const QString &reason, qint64 nowMs);
    /// Closes (reason "expired", with the same erasure) every open transaction whose expiresAtMs <= @p nowMs,
    /// erases the sandbox values of every finished transaction and deletes OTP send records older than
    /// @p sendsBeforeMs. Returns the number of transactions closed.
    int closeExpired(qint64 nowMs, qint64 sendsBeforeMs);

    /// Send times (UTC ms, oldest first) of OTPs to the number with keyed hash @p numberHash since @p sinceMs.
    /// On PostgreSQL it first takes a transaction lock on the number, so two servers deciding on a send to it
    /// take turns and the throttle holds across them (SQLite's BEGIN IMMEDIATE already does).
    QList<qint64> sendTimes(const QByteArray &numberHash, qint64 sinceMs);
    /// Records an OTP send for throttling.
    void insertSend(const QByteArray &numberHash, qint64 transactionId, qint64 nowMs);

    /// Stores the clear captcha of a test-mode transaction.
    void insertSandboxCaptcha(qint64 transactionId, const QString &captchaValue);
    /// Stores the latest clear OTP of a test-mode transaction.
    void setSandboxOtp(qint64 transactionId, const QString &otpValue);
    /// The clear values of a test-mode transaction; nullopt when none were stored (live mode).
    std::optional<AadhaarSandboxSecrets> sandboxSecrets(qint64 transactionId);

    /// Where a live transaction runs: the upstream's transaction id there, and that upstream's name.
    struct UpstreamLink
    {
        qint64 upstreamTransactionId = 0;
        QString upstreamName;
    };
    /// Links live transaction @p transactionId to the upstream's @p upstreamTransactionId at the upstream named
    /// @p upstreamName (migrations 10 and 14: a flow stays on the upstream where it began).
    void insertUpstreamLink(qint64 transactionId, qint64 upstreamTransactionId, const QString &upstreamName,
                            qint64 nowMs);
    /// The link of live transaction @p transactionId; nullopt when it has none.
    std::optional<UpstreamLink> upstreamLink(qint64 transactionId);

    /// The fingerprint of the vault key the servers of this database use (migration 11): stores @p fingerprint
    /// when none is stored yet, and returns the stored one (equal to @p fingerprint unless another server
    /// stored a different key's).
    QString claimVaultFingerprint(const QString &fingerprint);

private:
    /// Deletes the clear sandbox captcha and OTP and blanks the sandbox SMS texts of transaction @p id, or of
    /// every finished transaction when nullopt.
    void eraseSandboxValues(std::optional<qint64> id);

    Database &m_db;
};

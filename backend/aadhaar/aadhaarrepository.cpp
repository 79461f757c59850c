#include "aadhaarrepository.h"

#include "store/database.h"

#include <QtEndian>

namespace AadhaarStatusNames {

QString name(AadhaarStatus status)
{
    switch (status) {
    case AadhaarStatus::CaptchaGenerated:
        return QStringLiteral("CAPTCHA_GENERATED");
    case AadhaarStatus::OtpGenerated:
        return QStringLiteral("OTP_GENERATED");
    case AadhaarStatus::AuthenticationSuccess:
        return QStringLiteral("AUTHENTICATION_SUCCESS");
    case AadhaarStatus::Closed:
        return QStringLiteral("CLOSED");
    }
    Q_UNREACHABLE();
}

std::optional<AadhaarStatus> fromName(const QString &name)
{
    for (AadhaarStatus status : {AadhaarStatus::CaptchaGenerated, AadhaarStatus::OtpGenerated,
                                 AadhaarStatus::AuthenticationSuccess, AadhaarStatus::Closed}) {
        if (AadhaarStatusNames::name(status) == name)
            return status;
    }
    return std::nullopt;
}

} // namespace AadhaarStatusNames

namespace {

/// NULL for an empty array, else the text form: hex for hashes, base64 for sealed data and images.
QVariant hexOrNull(const QByteArray &bytes)
{
    return bytes.isEmpty() ? QVariant() : QVariant(QString::fromLatin1(bytes.toHex()));
}

QVariant base64OrNull(const QByteArray &bytes)
{
    return bytes.isEmpty() ? QVariant() : QVariant(QString::fromLatin1(bytes.toBase64()));
}

QByteArray fromHex(const QVariant &value)
{
    return QByteArray::fromHex(value.toString().toLatin1());
}

QByteArray fromBase64(const QVariant &value)
{
    return QByteArray::fromBase64(value.toString().toLatin1());
}

/// What a finished flow must not keep: the sealed number, the OTP hash and the captcha image.
const QLatin1String kErase("aadhaar_sealed = NULL, otp_hash = NULL, captcha_png = NULL");

} // namespace

qint64 AadhaarRepository::insert(const AadhaarTransactionRow &row, const QByteArray &captchaPng)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("INSERT INTO aadhaar_transactions (account_id, mode, key_id, status, captcha_token, captcha_png,"
                       " captcha_hash, captcha_expires_at, expires_at, created_at, updated_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        {row.accountId, ModeNames::mode(row.mode), textValue(row.keyId), AadhaarStatusNames::name(row.status),
         row.captchaToken, base64OrNull(captchaPng), hexOrNull(row.captchaHash), row.captchaExpiresAtMs,
         row.expiresAtMs, row.createdAtMs, row.updatedAtMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("inserting an Aadhaar transaction returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

std::optional<AadhaarTransactionRow> AadhaarRepository::find(qint64 id, qint64 accountId)
{
    const QString sql = QStringLiteral("SELECT id, account_id, mode, key_id, status, closed_reason, captcha_token,"
                                       " captcha_hash, captcha_expires_at, captcha_failures, aadhaar_sealed,"
                                       " aadhaar_masked, mobile_masked, otp_hash, otp_expires_at, otp_failures,"
                                       " expires_at, created_at, updated_at"
                                       " FROM aadhaar_transactions WHERE id = ? AND account_id = ?") +
                        (m_db.isPostgres() ? QStringLiteral(" FOR UPDATE") : QString());
    QSqlQuery &q = m_db.run(sql, {id, accountId});
    if (!q.next()) {
        q.finish();
        return std::nullopt;
    }
    AadhaarTransactionRow row;
    row.id = q.value(0).toLongLong();
    row.accountId = q.value(1).toLongLong();
    row.mode = ModeNames::modeFromString(q.value(2).toString()).value_or(Mode::Live);
    row.keyId = q.value(3).toString();
    row.status = AadhaarStatusNames::fromName(q.value(4).toString()).value_or(AadhaarStatus::Closed);
    row.closedReason = q.value(5).toString();
    row.captchaToken = q.value(6).toString();
    row.captchaHash = fromHex(q.value(7));
    row.captchaExpiresAtMs = q.value(8).toLongLong();
    row.captchaFailures = q.value(9).toInt();
    row.sealedNumber = fromBase64(q.value(10));
    row.maskedNumber = q.value(11).toString();
    row.maskedMobile = q.value(12).toString();
    row.otpHash = fromHex(q.value(13));
    row.otpExpiresAtMs = q.value(14).toLongLong();
    row.otpFailures = q.value(15).toInt();
    row.expiresAtMs = q.value(16).toLongLong();
    row.createdAtMs = q.value(17).toLongLong();
    row.updatedAtMs = q.value(18).toLongLong();
    q.finish();
    return row;
}

std::optional<QByteArray> AadhaarRepository::captchaPng(const QString &token, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT captcha_png FROM aadhaar_transactions WHERE captcha_token = ?"
                                           " AND status IN ('CAPTCHA_GENERATED', 'OTP_GENERATED')"
                                           " AND captcha_expires_at > ? AND expires_at > ?"
                                           " AND captcha_png IS NOT NULL"),
                            {token, nowMs, nowMs});
    std::optional<QByteArray> png;
    if (q.next())
        png = fromBase64(q.value(0));
    q.finish();
    return png;
}

void AadhaarRepository::recordCaptchaFailure(qint64 id, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE aadhaar_transactions SET captcha_failures = captcha_failures + 1, updated_at = ?"
                            " WHERE id = ?"),
             {nowMs, id});
}

void AadhaarRepository::recordOtpFailure(qint64 id, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE aadhaar_transactions SET otp_failures = otp_failures + 1, updated_at = ?"
                            " WHERE id = ?"),
             {nowMs, id});
}

void AadhaarRepository::storeOtp(const AadhaarTransactionRow &row, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE aadhaar_transactions SET status = 'OTP_GENERATED', aadhaar_sealed = ?,"
                            " aadhaar_masked = ?, mobile_masked = ?, otp_hash = ?, otp_expires_at = ?,"
                            " expires_at = ?, updated_at = ? WHERE id = ?"),
             {base64OrNull(row.sealedNumber), textValue(row.maskedNumber), textValue(row.maskedMobile),
              hexOrNull(row.otpHash), row.otpExpiresAtMs, row.expiresAtMs, nowMs, row.id});
}

void AadhaarRepository::markAuthenticated(qint64 id, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE aadhaar_transactions SET status = 'AUTHENTICATION_SUCCESS', ") + kErase +
                 QStringLiteral(", updated_at = ? WHERE id = ?"),
             {nowMs, id});
    eraseSandboxValues(id);
}

void AadhaarRepository::close(qint64 id, const QString &reason, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE aadhaar_transactions SET status = 'CLOSED', closed_reason = ?, ") + kErase +
                 QStringLiteral(", updated_at = ? WHERE id = ?"),
             {reason, nowMs, id});
    eraseSandboxValues(id);
}

void AadhaarRepository::eraseSandboxValues(std::optional<qint64> id)
{
    if (id) {
        m_db.run(QStringLiteral("DELETE FROM aadhaar_sandbox_secrets WHERE transaction_id = ?"), {*id});
        m_db.run(QStringLiteral("UPDATE sms_outbox SET message = '' WHERE transaction_id = ? AND message <> ''"),
                 {*id});
        return;
    }
    const QString finished =
        QStringLiteral(" IN (SELECT id FROM aadhaar_transactions WHERE status NOT IN ('CAPTCHA_GENERATED',"
                       " 'OTP_GENERATED'))");
    m_db.run(QStringLiteral("DELETE FROM aadhaar_sandbox_secrets WHERE transaction_id") + finished);
    m_db.run(QStringLiteral("UPDATE sms_outbox SET message = '' WHERE message <> '' AND transaction_id") + finished);
}

int AadhaarRepository::closeExpired(qint64 nowMs, qint64 sendsBeforeMs)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE aadhaar_transactions SET status = 'CLOSED', closed_reason = 'expired', ") + kErase +
            QStringLiteral(", updated_at = ? WHERE status IN ('CAPTCHA_GENERATED', 'OTP_GENERATED')"
                           " AND expires_at <= ?"),
        {nowMs, nowMs});
    const int closed = q.numRowsAffected();
    q.finish();
    eraseSandboxValues(std::nullopt); // also what a version before issue 12 left behind
    m_db.run(QStringLiteral("DELETE FROM aadhaar_otp_sends WHERE sent_at < ?"), {sendsBeforeMs});
    return closed;
}

QList<qint64> AadhaarRepository::sendTimes(const QByteArray &numberHash, qint64 sinceMs)
{
    if (m_db.isPostgres() && numberHash.size() >= 8) {
        // The key: the first 8 bytes of the keyed hash (nothing about the number itself reaches the server).
        m_db.run(QStringLiteral("SELECT pg_advisory_xact_lock(?)"), {qFromBigEndian<qint64>(numberHash.constData())})
            .finish();
    }
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT sent_at FROM aadhaar_otp_sends WHERE number_hash = ? AND sent_at > ?"
                                           " ORDER BY sent_at"),
                            {hexOrNull(numberHash), sinceMs});
    QList<qint64> times;
    while (q.next())
        times.append(q.value(0).toLongLong());
    q.finish();
    return times;
}

void AadhaarRepository::insertSend(const QByteArray &numberHash, qint64 transactionId, qint64 nowMs)
{
    m_db.run(QStringLiteral("INSERT INTO aadhaar_otp_sends (number_hash, transaction_id, sent_at) VALUES (?, ?, ?)"),
             {hexOrNull(numberHash), transactionId, nowMs});
}

void AadhaarRepository::insertSandboxCaptcha(qint64 transactionId, const QString &captchaValue)
{
    m_db.run(QStringLiteral("INSERT INTO aadhaar_sandbox_secrets (transaction_id, captcha_value) VALUES (?, ?)"),
             {transactionId, captchaValue});
}

void AadhaarRepository::setSandboxOtp(qint64 transactionId, const QString &otpValue)
{
    m_db.run(QStringLiteral("UPDATE aadhaar_sandbox_secrets SET otp_value = ? WHERE transaction_id = ?"),
             {otpValue, transactionId});
}

std::optional<AadhaarSandboxSecrets> AadhaarRepository::sandboxSecrets(qint64 transactionId)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT captcha_value, otp_value FROM aadhaar_sandbox_secrets WHERE transaction_id = ?"),
        {transactionId});
    std::optional<AadhaarSandboxSecrets> secrets;
    if (q.next()) {
        secrets = AadhaarSandboxSecrets{q.value(0).toString(), std::nullopt};
        if (!q.value(1).isNull())
            secrets->otpValue = q.value(1).toString();
    }
    q.finish();
    return secrets;
}

void AadhaarRepository::insertUpstreamLink(qint64 transactionId, qint64 upstreamTransactionId,
                                           const QString &upstreamName, qint64 nowMs)
{
    m_db.run(QStringLiteral("INSERT INTO aadhaar_upstream_links (transaction_id, upstream_transaction_id,"
                            " upstream_name, created_at) VALUES (?, ?, ?, ?)"),
             {transactionId, upstreamTransactionId, upstreamName, nowMs});
}

std::optional<AadhaarRepository::UpstreamLink> AadhaarRepository::upstreamLink(qint64 transactionId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT upstream_transaction_id, upstream_name FROM aadhaar_upstream_links"
                                           " WHERE transaction_id = ?"),
                            {transactionId});
    std::optional<UpstreamLink> link;
    if (q.next())
        link = UpstreamLink{q.value(0).toLongLong(), q.value(1).toString()};
    q.finish();
    return link;
}

QString AadhaarRepository::claimVaultFingerprint(const QString &fingerprint)
{
    m_db.run(
        QStringLiteral("INSERT INTO vault_fingerprint (id, fingerprint) VALUES (1, ?) ON CONFLICT (id) DO NOTHING"),
        {fingerprint});
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT fingerprint FROM vault_fingerprint WHERE id = 1"));
    const QString stored = q.next() ? q.value(0).toString() : fingerprint;
    q.finish();
    return stored;
}

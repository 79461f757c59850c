#pragma once

#include "aadhaargateway.h"
#include "upstream/upstreamclient.h"
#include "upstream/upstreamsettingsrepository.h"

#include <QObject>

class AadhaarVault;
class Clock;
class Database;

/// The live Aadhaar OTP flow through the configured upstream (issue 13), an aggregator speaking api-v1.md
/// endpoints 1-3. initiate calls the upstream's initiate, fetches its captcha image once (only from under the
/// upstream's base URL, so the upstream key never goes elsewhere) and stores a live aadhaar_transactions row with
/// that image under a fresh unguessable token of this shop (served by the ordinary captcha route, valid
/// AadhaarService::kCaptchaValidityMs) and the link to the upstream's transaction id (migration 10). request-otp
/// and verify-otp are forwarded with the upstream's id; the upstream's statuses, messages and error reasons come
/// back unchanged, but under this shop's transaction id.
///
/// Privacy as in the sandbox: the Aadhaar number is kept only sealed (AadhaarVault) while OTP_GENERATED, erased on
/// success, on a closure by the upstream and by the expiry sweep; logs and messages name only the masked number.
///
/// Errors: no upstream configured → 503 no_uidai_gateway (AadhaarService::noUidaiGateway); no vault → 503
/// aadhaar_vault_unavailable; the upstream unreachable → 503 upstream_unreachable; it refused this shop's key →
/// 503 upstream_key_refused; a 5xx or an unreadable answer → 502 upstream_error / upstream_bad_answer; any other
/// 4xx → the upstream's error envelope as it is, with its Retry-After (e.g. 429 otp_throttled). A failed initiate
/// stores nothing.
class UpstreamAadhaarGateway final : public QObject, public AadhaarGateway
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamAadhaarGateway)

public:
    /// Captcha images larger than this are refused (bytes).
    static constexpr qsizetype kMaxCaptchaBytes = 1024 * 1024;

    /// @p vault (may be null) unseals the upstream key and seals numbers; @p timeoutMs bounds each upstream call.
    UpstreamAadhaarGateway(Database &db, const AadhaarVault *vault, const Clock &clock, int timeoutMs,
                           QObject *parent = nullptr);

    void initiate(const AuthContext &caller, Done done) override;
    void requestOtp(const AuthContext &caller, qint64 transactionId, const QString &aadhaarNumber,
                    const QString &captchaValue, Done done) override;
    void verifyOtp(const AuthContext &caller, qint64 transactionId, const QString &otpValue, Done done) override;

private:
    /// The configured upstream; throws 503 without one or without a vault.
    UpstreamSettings requireUpstream();
    /// The caller's live transaction that can still take a step, with its upstream id; throws 404 / 409.
    std::pair<AadhaarTransactionRow, qint64> loadOpen(const AuthContext &caller, qint64 transactionId);
    void fetchCaptcha(const AuthContext &caller, const UpstreamSettings &settings, const QString &captchaPath,
                      const AadhaarStepResult &upstream, const Done &done);
    void storeInitiated(const AuthContext &caller, const AadhaarStepResult &upstream, const QByteArray &png,
                        const Done &done);
    /// Closes the shop's transaction when the upstream says its own is closed or expired (erasing the number).
    void mirrorClosure(qint64 transactionId, const UpstreamAnswer &reply);

    Database &m_db;
    const AadhaarVault *m_vault;
    const Clock &m_clock;
    UpstreamClient m_client;
    UpstreamSettingsCache m_settings;
};

#pragma once

#include "aadhaargateway.h"
#include "aadhaarrepository.h"
#include "upstream/upstreamclient.h"
#include "upstream/upstreamsettingsrepository.h"

#include <QObject>

class AadhaarVault;
class Clock;
class Database;

/// The live Aadhaar OTP flow through an upstream (issue 13): it begins at the first upstream by priority that sells
/// "aadhaar" and stays there (issue 26, "Several upstreams"), an aggregator speaking api-v1.md
/// endpoints 1-3. initiate calls the upstream's initiate, fetches its captcha image once and stores a live
/// aadhaar_transactions row with that image under a fresh unguessable token of this shop (served by the ordinary
/// captcha route, valid AadhaarService::kCaptchaValidityMs) and the link to the upstream's transaction id
/// (migration 10). The captcha may lie anywhere on the upstream's own host, given as a URL or a path
/// (UpstreamClient::onUpstreamHost(); issue 26, "Liberal in what it accepts"); elsewhere it is never fetched, so the
/// upstream's key goes nowhere else. request-otp and verify-otp are forwarded with the upstream's id; the upstream's
/// statuses and messages come back under this shop's transaction id.
///
/// Privacy as in the sandbox: the Aadhaar number is kept only sealed (AadhaarVault) while OTP_GENERATED, erased on
/// success, on a closure by the upstream and by the expiry sweep; logs, messages and the upstream's words name only
/// the masked number.
///
/// Errors: no upstream configured → 503 no_uidai_gateway (AadhaarService::noUidaiGateway); no vault → 503
/// aadhaar_vault_unavailable; the upstream unreachable → 503 upstream_unreachable; it refused this shop's key (401,
/// 403) → 503 upstream_key_refused; a 5xx → 502 upstream_error; an answer this server cannot read (not the step, a
/// captcha that is no PNG of at most kMaxCaptchaBytes) → 502 upstream_bad_answer; a captcha on another host → 502
/// upstream_captcha_elsewhere. Any other 4xx is a refusal of the step (issue 26, "The upstream's words"): a
/// RechargeDesk upstream's error envelope passes as it is (e.g. 400 captcha_mismatch with attempts_left), any other
/// format becomes 400 upstream_refused (409 for a 409, 429 upstream_throttled for a 429) whose description is the
/// upstream's own words (UpstreamError), e.g. "Invalid captcha"; a Retry-After comes along in seconds. A failed
/// initiate stores nothing.
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
    /// The upstream a flow runs at: `name` (where it began; 503 upstream_gone when it is not configured any more),
    /// or without a name the first by priority that sells "aadhaar" (503 no_uidai_gateway when none does). Throws 503
    /// without a vault.
    UpstreamSettings requireUpstream(const QString &name = {});
    /// The caller's live transaction that can still take a step, with where it runs; throws 404 / 409.
    std::pair<AadhaarTransactionRow, AadhaarRepository::UpstreamLink> loadOpen(const AuthContext &caller,
                                                                               qint64 transactionId);
    /// Fetches the captcha image at @p captcha (on the upstream's host) and stores the new transaction with it.
    void fetchCaptcha(const AuthContext &caller, const UpstreamSettings &settings, const QUrl &captcha,
                      const AadhaarStepResult &upstream, const Done &done);
    void storeInitiated(const AuthContext &caller, const QString &upstreamName, const AadhaarStepResult &upstream,
                        const QByteArray &png, const Done &done);
    /// Closes the shop's transaction when the upstream says its own is closed or expired (erasing the number).
    void mirrorClosure(qint64 transactionId, const UpstreamAnswer &reply);

    Database &m_db;
    const AadhaarVault *m_vault;
    const Clock &m_clock;
    UpstreamClient m_client;
    UpstreamSettingsCache m_settings;
};

#include "upstreamaadhaargateway.h"

#include "aadhaarrepository.h"
#include "aadhaarvault.h"
#include "apierror.h"
#include "clock.h"
#include "store/database.h"
#include "validators.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

#include <algorithm>

namespace {

Q_LOGGING_CATEGORY(lcLiveAadhaar, "rechargedesk.aadhaar")

const QLatin1String kBase("/uidai/aadhaar-authentication");

/// One `aadhaar_authentication` entity as the upstream answered it.
struct UpstreamStep
{
    qint64 transactionId = 0;
    AadhaarStatus status = AadhaarStatus::CaptchaGenerated;
    QString msg;
    QString aadhaarNumber;
    QString captcha;
};

QString hostOf(const UpstreamSettings &settings)
{
    return QUrl(settings.baseUrl).authority();
}

/// @p words with every occurrence of @p number masked: an upstream's words never carry the number in clear.
QString masked(QString words, const QString &number)
{
    if (!number.isEmpty())
        words.replace(number, AadhaarVault::mask(number));
    return words;
}

ApiError badAnswer(const UpstreamSettings &settings, const QString &what)
{
    return ApiError(502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_bad_answer"),
                    QStringLiteral("the upstream %1 answered with %2").arg(hostOf(settings), what));
}

/// A captcha location that is not on the upstream's own host (issue 26, "Liberal in what it accepts"): never fetched,
/// so the upstream's key goes nowhere else.
ApiError captchaElsewhere(const UpstreamSettings &settings, const QString &location)
{
    return ApiError(
        502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_captcha_elsewhere"),
        QStringLiteral("the upstream %1 gave its captcha image at \"%2\", which is not on its own host "
                       "(%3); this server fetches only from there, so that the upstream's key goes "
                       "nowhere else")
            .arg(hostOf(settings), location.left(200), QUrl(settings.baseUrl).adjusted(QUrl::RemovePath).toString()));
}

/// The error the clerk gets for a non-200 answer (see the class comment); @p aadhaarNumber, when the step sent one,
/// is masked in the upstream's words.
ApiError failure(const UpstreamSettings &settings, const UpstreamAnswer &answer, const QString &aadhaarNumber = {})
{
    const int status = answer.httpStatus;
    if (answer.tooLarge)
        return badAnswer(settings, answer.networkError);
    if (status == 0)
        return ApiError::gatewayUnavailable(QStringLiteral("upstream_unreachable"),
                                            QStringLiteral("the upstream %1 did not answer (%2); nothing was done, "
                                                           "try again")
                                                .arg(hostOf(settings), answer.networkError));
    const UpstreamError error = UpstreamError::of(answer.body);
    const QString words = masked(error.words, aadhaarNumber);
    const QString said = masked(answer.inWords(), aadhaarNumber); // "HTTP 500: <its words>"
    const auto withRetryAfter = [&answer](const ApiError &e) {
        return answer.retryAfterSeconds ? e.withHeader("Retry-After", QByteArray::number(*answer.retryAfterSeconds))
                                        : e;
    };
    if (status == 401 || status == 403)
        return ApiError::gatewayUnavailable(QStringLiteral("upstream_key_refused"),
                                            QStringLiteral("the upstream %1 refused this shop's key (%2); check "
                                                           "the key with `rechargedesk upstream check`")
                                                .arg(hostOf(settings), said));
    if (status >= 400 && status < 500) {
        // A RechargeDesk upstream's envelope passes as it is (its reason, field, attempts_left); any other upstream's
        // refusal is this server's envelope with the upstream's own words (issue 26, "The upstream's words").
        if (error.isEnvelope())
            return withRetryAfter(ApiError::fromJson(status, QJsonDocument::fromJson(answer.body).object()));
        qCInfo(lcLiveAadhaar, "the upstream %s refused an Aadhaar step: %s", qPrintable(hostOf(settings)),
               qPrintable(said));
        const QString description =
            !words.isEmpty() ? words
                             : QStringLiteral("the upstream %1 refused the step (HTTP %2) without saying why")
                                   .arg(hostOf(settings))
                                   .arg(status);
        if (status == 429)
            return withRetryAfter(ApiError::rateLimited(QStringLiteral("upstream_throttled"), description));
        if (status == 409)
            return ApiError::conflict(QStringLiteral("upstream_refused"), description);
        return ApiError::badRequest(QString(), QStringLiteral("upstream_refused"), description);
    }
    if (status >= 500 && status < 600)
        return ApiError(502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_error"),
                        QStringLiteral("the upstream %1 failed (%2); try again").arg(hostOf(settings), said));
    return ApiError(
        502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_bad_answer"),
        QStringLiteral("the upstream %1 answered %2, which this server cannot read").arg(hostOf(settings), said));
}

/// Reads a 200 answer carrying an `aadhaar_authentication` entity in @p expected; any other answer throws (failure(),
/// masking @p aadhaarNumber in the upstream's words).
UpstreamStep readStep(const UpstreamSettings &settings, const UpstreamAnswer &answer,
                      std::initializer_list<AadhaarStatus> expected, const QString &aadhaarNumber = {})
{
    if (answer.httpStatus != 200)
        throw failure(settings, answer, aadhaarNumber);
    const QJsonObject data = QJsonDocument::fromJson(answer.body).object().value(QStringLiteral("data")).toObject();
    UpstreamStep step;
    step.transactionId = data.value(QStringLiteral("transaction_id")).toInteger();
    const std::optional<AadhaarStatus> status =
        AadhaarStatusNames::fromName(data.value(QStringLiteral("status")).toString());
    if (step.transactionId <= 0 || !status || std::find(expected.begin(), expected.end(), *status) == expected.end())
        throw badAnswer(settings, QStringLiteral("a body that is not the expected Aadhaar authentication step"));
    step.status = *status;
    step.msg = data.value(QStringLiteral("msg")).toString();
    step.aadhaarNumber = data.value(QStringLiteral("aadhaar_number")).toString();
    step.captcha = data.value(QStringLiteral("captcha")).toString();
    return step;
}

/// The shop's answer to a forwarded step: the upstream's status and words under the shop's transaction @p id.
AadhaarStepResult stepResult(qint64 id, const UpstreamStep &step, const QString &aadhaarNumber)
{
    AadhaarStepResult result;
    result.transactionId = id;
    result.status = step.status;
    result.msg = masked(step.msg, aadhaarNumber);
    result.aadhaarNumber = aadhaarNumber;
    return result;
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

/// Runs @p step, handing its result or exception to @p done.
void answer(const AadhaarGateway::Done &done, const std::function<AadhaarStepResult()> &step)
{
    AadhaarGatewayAnswer result;
    try {
        result.result = step();
    } catch (...) {
        result.error = std::current_exception();
    }
    done(result);
}

} // namespace

UpstreamAadhaarGateway::UpstreamAadhaarGateway(Database &db, const AadhaarVault *vault, const Clock &clock,
                                               int timeoutMs, QObject *parent)
    : QObject(parent), m_db(db), m_vault(vault), m_clock(clock), m_client(clock, timeoutMs), m_settings(db, vault)
{
    m_client.setMaxAnswerBytes(kMaxCaptchaBytes); // the captcha image; every JSON answer is far smaller
}

UpstreamSettings UpstreamAadhaarGateway::requireUpstream(const QString &name)
{
    if (m_vault == nullptr)
        throw ApiError::gatewayUnavailable(QStringLiteral("aadhaar_vault_unavailable"),
                                           QStringLiteral("Aadhaar verification is not available on this server: its "
                                                          "key store could not be opened"));
    if (name.isEmpty()) {
        const QList<UpstreamSettings> candidates = m_settings.candidates(QStringLiteral("aadhaar"));
        if (candidates.isEmpty())
            throw AadhaarService::noUidaiGateway();
        return candidates.constFirst();
    }
    const std::optional<UpstreamSettings> settings = m_settings.find(name);
    if (!settings)
        throw ApiError::gatewayUnavailable(QStringLiteral("upstream_gone"),
                                           QStringLiteral("this verification began at the upstream %1, which is not "
                                                          "configured any more: start a new one")
                                               .arg(name));
    return *settings;
}

std::pair<AadhaarTransactionRow, AadhaarRepository::UpstreamLink>
UpstreamAadhaarGateway::loadOpen(const AuthContext &caller, qint64 transactionId)
{
    AadhaarRepository repository(m_db);
    WriteTransaction transaction(m_db);
    std::optional<AadhaarTransactionRow> row = repository.find(transactionId, caller.accountId);
    const std::optional<AadhaarRepository::UpstreamLink> link = row ? repository.upstreamLink(row->id) : std::nullopt;
    if (!row || row->mode != Mode::Live || !link)
        throw AadhaarService::notFound(transactionId);
    const qint64 now = m_clock.nowMs();
    const bool open = row->status == AadhaarStatus::CaptchaGenerated || row->status == AadhaarStatus::OtpGenerated;
    if (open && now >= row->expiresAtMs) {
        repository.close(row->id, QStringLiteral("expired"), now);
        transaction.commit(); // the closure stands although this request fails
        row->closedReason = QStringLiteral("expired");
        row->status = AadhaarStatus::Closed;
    }
    if (row->status == AadhaarStatus::Closed || row->status == AadhaarStatus::AuthenticationSuccess)
        throw AadhaarService::closedError(*row);
    return {*row, *link};
}

void UpstreamAadhaarGateway::initiate(const AuthContext &caller, Done done)
{
    const UpstreamSettings settings = requireUpstream();
    m_client.call(settings, "GET", kBase + QStringLiteral("/initiate-transaction"), QByteArray(),
                  [this, caller, settings, done](const UpstreamAnswer &reply) {
                      UpstreamStep step;
                      std::optional<QUrl> captcha;
                      try {
                          step = readStep(settings, reply, {AadhaarStatus::CaptchaGenerated});
                          captcha = UpstreamClient::onUpstreamHost(settings, step.captcha);
                          if (!captcha)
                              throw captchaElsewhere(settings, step.captcha);
                      } catch (...) {
                          done(AadhaarGatewayAnswer{std::nullopt, std::current_exception()});
                          return;
                      }
                      AadhaarStepResult upstream;
                      upstream.transactionId = step.transactionId;
                      upstream.status = step.status;
                      upstream.msg = step.msg;
                      fetchCaptcha(caller, settings, *captcha, upstream, done);
                  });
}

void UpstreamAadhaarGateway::fetchCaptcha(const AuthContext &caller, const UpstreamSettings &settings,
                                          const QUrl &captcha, const AadhaarStepResult &upstream, const Done &done)
{
    UpstreamClient::Request request;
    request.url = captcha;
    request.headers = {{"Accept", "image/png"}};
    m_client.send(settings, request, [this, caller, settings, captcha, upstream, done](const UpstreamAnswer &reply) {
        if (reply.httpStatus == 200 && reply.body.startsWith("\x89PNG\r\n\x1a\n")) {
            storeInitiated(caller, settings.name, upstream, reply.body, done);
            return;
        }
        answer(done, [&]() -> AadhaarStepResult {
            if (reply.httpStatus == 0 && !reply.tooLarge)
                throw failure(settings, reply);
            throw badAnswer(settings, QStringLiteral("a captcha at %1 that is not a PNG image of at most 1 MiB (%2)")
                                          .arg(captcha.toString(), reply.inWords()));
        });
    });
}

void UpstreamAadhaarGateway::storeInitiated(const AuthContext &caller, const QString &upstreamName,
                                            const AadhaarStepResult &upstream, const QByteArray &png, const Done &done)
{
    answer(done, [&] {
        const qint64 now = m_clock.nowMs();
        AadhaarTransactionRow row;
        row.accountId = caller.accountId;
        row.mode = Mode::Live;
        row.keyId = caller.keyId;
        row.status = AadhaarStatus::CaptchaGenerated;
        row.captchaToken = AadhaarService::newCaptchaToken();
        // The answer is checked by the upstream; this hash of the token only fills the column.
        row.captchaHash = m_vault->keyedHash("captcha-live", row.captchaToken.toLatin1());
        row.captchaExpiresAtMs = now + AadhaarService::kCaptchaValidityMs;
        row.expiresAtMs = now + AadhaarService::kTransactionLifetimeMs;
        row.createdAtMs = now;
        row.updatedAtMs = now;
        AadhaarRepository repository(m_db);
        WriteTransaction transaction(m_db);
        repository.closeExpired(now, now - AadhaarService::kSendWindowMs); // as the sandbox's initiate does
        row.id = repository.insert(row, png);
        repository.insertUpstreamLink(row.id, upstream.transactionId, upstreamName, now);
        transaction.commit();
        qCInfo(lcLiveAadhaar, "live Aadhaar transaction %lld started at the upstream as %lld", row.id,
               upstream.transactionId);
        AadhaarStepResult result = upstream;
        result.transactionId = row.id;
        result.captchaToken = row.captchaToken;
        return result;
    });
}

void UpstreamAadhaarGateway::requestOtp(const AuthContext &caller, qint64 transactionId, const QString &aadhaarNumber,
                                        const QString &captchaValue, Done done)
{
    requireUpstream();
    AadhaarService::requireAadhaarNumber(aadhaarNumber);
    const auto [row, link] = loadOpen(caller, transactionId);
    const UpstreamSettings settings = requireUpstream(link.upstreamName); // where the flow began
    const QByteArray body = json(QJsonObject{{QStringLiteral("transaction_id"), link.upstreamTransactionId},
                                             {QStringLiteral("aadhaar_number"), aadhaarNumber},
                                             {QStringLiteral("captcha_value"), captchaValue}});
    m_client.call(
        settings, "POST", kBase + QStringLiteral("/request-otp"), body,
        [this, settings, id = row.id, account = caller.accountId, aadhaarNumber, done](const UpstreamAnswer &reply) {
            mirrorClosure(id, reply);
            answer(done, [&] {
                const UpstreamStep step = readStep(settings, reply, {AadhaarStatus::OtpGenerated}, aadhaarNumber);
                const qint64 now = m_clock.nowMs();
                AadhaarRepository repository(m_db);
                WriteTransaction transaction(m_db);
                std::optional<AadhaarTransactionRow> found = repository.find(id, account);
                if (!found)
                    throw AadhaarService::notFound(id);
                AadhaarTransactionRow stored = *found;
                stored.sealedNumber = m_vault->seal(aadhaarNumber, QByteArray::number(id));
                stored.maskedNumber = AadhaarVault::mask(aadhaarNumber);
                stored.otpHash.clear();
                stored.otpExpiresAtMs = now + AadhaarService::kOtpValidityMs;
                stored.expiresAtMs = qMax(stored.expiresAtMs, stored.otpExpiresAtMs);
                repository.storeOtp(stored, now);
                transaction.commit();
                qCInfo(lcLiveAadhaar, "live Aadhaar transaction %lld: the upstream sent an OTP for %s", id,
                       qPrintable(stored.maskedNumber));
                return stepResult(id, step, aadhaarNumber);
            });
        });
}

void UpstreamAadhaarGateway::verifyOtp(const AuthContext &caller, qint64 transactionId, const QString &otpValue,
                                       Done done)
{
    requireUpstream();
    const auto [row, link] = loadOpen(caller, transactionId);
    const UpstreamSettings settings = requireUpstream(link.upstreamName); // where the flow began
    const QByteArray body = json(QJsonObject{{QStringLiteral("transaction_id"), link.upstreamTransactionId},
                                             {QStringLiteral("otp_value"), otpValue}});
    m_client.call(settings, "POST", kBase + QStringLiteral("/verify-otp"), body,
                  [this, settings, id = row.id, sealed = row.sealedNumber, done](const UpstreamAnswer &reply) {
                      mirrorClosure(id, reply);
                      answer(done, [&] {
                          const UpstreamStep step = readStep(settings, reply, {AadhaarStatus::AuthenticationSuccess});
                          QString number = step.aadhaarNumber;
                          if (!Validators::isAadhaarNumber(number))
                              number = m_vault->unseal(sealed, QByteArray::number(id)).value_or(QString());
                          if (number.isEmpty())
                              throw badAnswer(settings, QStringLiteral("a success that names no Aadhaar number"));
                          AadhaarRepository repository(m_db);
                          WriteTransaction transaction(m_db);
                          repository.markAuthenticated(id, m_clock.nowMs());
                          transaction.commit();
                          qCInfo(lcLiveAadhaar,
                                 "live Aadhaar transaction %lld: %s authenticated by the upstream; sealed "
                                 "number erased",
                                 id, qPrintable(AadhaarVault::mask(number)));
                          return stepResult(id, step, number);
                      });
                  });
}

void UpstreamAadhaarGateway::mirrorClosure(qint64 transactionId, const UpstreamAnswer &reply)
{
    if (reply.httpStatus != 409)
        return;
    const QString reason = UpstreamError::of(reply.body).reason;
    if (reason != QLatin1String("transaction_closed") && reason != QLatin1String("transaction_expired"))
        return;
    try {
        WriteTransaction transaction(m_db);
        AadhaarRepository(m_db).close(transactionId, QStringLiteral("upstream"), m_clock.nowMs());
        transaction.commit();
    } catch (const std::exception &e) {
        qCWarning(lcLiveAadhaar, "closing live Aadhaar transaction %lld failed: %s", transactionId, e.what());
    }
}

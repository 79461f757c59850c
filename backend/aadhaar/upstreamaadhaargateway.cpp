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

/// The error the clerk gets for a non-200 answer (see the class comment).
ApiError failure(const UpstreamSettings &settings, const UpstreamAnswer &answer)
{
    const int status = answer.httpStatus;
    if (status == 0)
        return ApiError::gatewayUnavailable(QStringLiteral("upstream_unreachable"),
                                            QStringLiteral("the upstream %1 did not answer (%2); nothing was done, "
                                                           "try again")
                                                .arg(hostOf(settings), answer.networkError));
    const ApiError upstream = ApiError::fromJson(status, QJsonDocument::fromJson(answer.body).object());
    const QString said = upstream.description().isEmpty() ? QString() : QStringLiteral(": ") + upstream.description();
    if (status == 401 || status == 403)
        return ApiError::gatewayUnavailable(QStringLiteral("upstream_key_refused"),
                                            QStringLiteral("the upstream %1 refused this shop's key (HTTP %2%3); "
                                                           "check the key with `rechargedesk upstream check`")
                                                .arg(hostOf(settings))
                                                .arg(status)
                                                .arg(said));
    if (status >= 400 && status < 500 && !upstream.reason().isEmpty() && !upstream.code().isEmpty())
        return answer.retryAfter.isEmpty() ? upstream : upstream.withHeader("Retry-After", answer.retryAfter);
    if (status >= 500 && status < 600)
        return ApiError(502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_error"),
                        QStringLiteral("the upstream %1 failed (HTTP %2%3); try again")
                            .arg(hostOf(settings))
                            .arg(status)
                            .arg(said));
    return ApiError(502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_bad_answer"),
                    QStringLiteral("the upstream %1 answered HTTP %2 with no error this server can read")
                        .arg(hostOf(settings))
                        .arg(status));
}

ApiError badAnswer(const UpstreamSettings &settings, const QString &what)
{
    return ApiError(502, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("upstream_bad_answer"),
                    QStringLiteral("the upstream %1 answered with %2").arg(hostOf(settings), what));
}

/// Reads a 200 answer carrying an `aadhaar_authentication` entity in @p expected.
UpstreamStep readStep(const UpstreamSettings &settings, const UpstreamAnswer &answer,
                      std::initializer_list<AadhaarStatus> expected)
{
    if (answer.httpStatus != 200)
        throw failure(settings, answer);
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

/// The path under the upstream's base URL of the captcha @p location (a URL or a path); nullopt when it lies
/// elsewhere (the upstream key is sent only under the base URL).
std::optional<QString> pathUnderBase(const UpstreamSettings &settings, const QString &location)
{
    const QUrl resolved = QUrl(settings.baseUrl).resolved(QUrl(location));
    const QString full = resolved.toString(QUrl::FullyEncoded);
    const QString prefix = settings.baseUrl + QLatin1Char('/');
    if (location.isEmpty() || !resolved.isValid() || !full.startsWith(prefix))
        return std::nullopt;
    return full.mid(prefix.size() - 1);
}

/// @p msg with every occurrence of @p number masked: an upstream's words never carry the number in clear.
QString masked(QString msg, const QString &number)
{
    if (!number.isEmpty())
        msg.replace(number, AadhaarVault::mask(number));
    return msg;
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
{}

UpstreamSettings UpstreamAadhaarGateway::requireUpstream()
{
    if (m_vault == nullptr)
        throw ApiError::gatewayUnavailable(QStringLiteral("aadhaar_vault_unavailable"),
                                           QStringLiteral("Aadhaar verification is not available on this server: its "
                                                          "key store could not be opened"));
    std::optional<UpstreamSettings> settings = m_settings.current();
    if (!settings)
        throw AadhaarService::noUidaiGateway();
    return *settings;
}

std::pair<AadhaarTransactionRow, qint64> UpstreamAadhaarGateway::loadOpen(const AuthContext &caller,
                                                                          qint64 transactionId)
{
    AadhaarRepository repository(m_db);
    WriteTransaction transaction(m_db);
    std::optional<AadhaarTransactionRow> row = repository.find(transactionId, caller.accountId);
    const std::optional<qint64> upstreamId = row ? repository.upstreamTransactionId(row->id) : std::nullopt;
    if (!row || row->mode != Mode::Live || !upstreamId)
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
    return {*row, *upstreamId};
}

void UpstreamAadhaarGateway::initiate(const AuthContext &caller, Done done)
{
    const UpstreamSettings settings = requireUpstream();
    m_client.call(settings, "GET", kBase + QStringLiteral("/initiate-transaction"), QByteArray(),
                  [this, caller, settings, done](const UpstreamAnswer &reply) {
                      UpstreamStep step;
                      std::optional<QString> path;
                      try {
                          step = readStep(settings, reply, {AadhaarStatus::CaptchaGenerated});
                          path = pathUnderBase(settings, step.captcha);
                          if (!path)
                              throw badAnswer(settings, QStringLiteral("a captcha image outside its base URL"));
                      } catch (...) {
                          done(AadhaarGatewayAnswer{std::nullopt, std::current_exception()});
                          return;
                      }
                      AadhaarStepResult upstream;
                      upstream.transactionId = step.transactionId;
                      upstream.status = step.status;
                      upstream.msg = step.msg;
                      fetchCaptcha(caller, settings, *path, upstream, done);
                  });
}

void UpstreamAadhaarGateway::fetchCaptcha(const AuthContext &caller, const UpstreamSettings &settings,
                                          const QString &captchaPath, const AadhaarStepResult &upstream,
                                          const Done &done)
{
    m_client.call(settings, "GET", captchaPath, QByteArray(),
                  [this, caller, settings, upstream, done](const UpstreamAnswer &reply) {
                      if (reply.httpStatus == 200 && reply.body.startsWith("\x89PNG\r\n\x1a\n") &&
                          reply.body.size() <= kMaxCaptchaBytes) {
                          storeInitiated(caller, upstream, reply.body, done);
                          return;
                      }
                      answer(done, [&]() -> AadhaarStepResult {
                          if (reply.httpStatus != 200)
                              throw failure(settings, reply);
                          throw badAnswer(settings, QStringLiteral("a captcha that is not a PNG image of at most "
                                                                   "1 MiB"));
                      });
                  });
}

void UpstreamAadhaarGateway::storeInitiated(const AuthContext &caller, const AadhaarStepResult &upstream,
                                            const QByteArray &png, const Done &done)
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
        repository.insertUpstreamLink(row.id, upstream.transactionId, now);
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
    const UpstreamSettings settings = requireUpstream();
    AadhaarService::requireAadhaarNumber(aadhaarNumber);
    const auto [row, upstreamId] = loadOpen(caller, transactionId);
    const QByteArray body = json(QJsonObject{{QStringLiteral("transaction_id"), upstreamId},
                                             {QStringLiteral("aadhaar_number"), aadhaarNumber},
                                             {QStringLiteral("captcha_value"), captchaValue}});
    m_client.call(
        settings, "POST", kBase + QStringLiteral("/request-otp"), body,
        [this, settings, id = row.id, account = caller.accountId, aadhaarNumber, done](const UpstreamAnswer &reply) {
            mirrorClosure(id, reply);
            answer(done, [&] {
                const UpstreamStep step = readStep(settings, reply, {AadhaarStatus::OtpGenerated});
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
    const UpstreamSettings settings = requireUpstream();
    const auto [row, upstreamId] = loadOpen(caller, transactionId);
    const QByteArray body =
        json(QJsonObject{{QStringLiteral("transaction_id"), upstreamId}, {QStringLiteral("otp_value"), otpValue}});
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
    const QString reason = ApiError::fromJson(409, QJsonDocument::fromJson(reply.body).object()).reason();
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

#include "upstreamclient.h"

#include "clock.h"
#include "entities/transactionrecord.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>
#include <QRegularExpression>

#include <algorithm>

namespace {

/// UpstreamAnswer::words() of @p body, already parsed as @p document.
QString wordsOf(const QJsonDocument &document, const QByteArray &body)
{
    constexpr qsizetype kMaxWords = 300;
    if (document.isObject()) {
        const QJsonObject json = document.object();
        const QJsonObject error = json.value(QStringLiteral("error")).toObject();
        for (const QJsonValue &candidate :
             {error.value(QStringLiteral("description")), error.value(QStringLiteral("message")),
              json.value(QStringLiteral("message")), json.value(QStringLiteral("msg")),
              json.value(QStringLiteral("description")), json.value(QStringLiteral("error"))}) {
            const QString text = candidate.toString().simplified();
            if (!text.isEmpty())
                return text.left(kMaxWords);
        }
        return QString();
    }
    // A short plain body is words too; markup (an HTML error page) and binary are not.
    const QString text = QString::fromUtf8(body).simplified();
    if (text.isEmpty() || text.size() > kMaxWords || text.contains(QLatin1Char('<')) ||
        text.contains(QChar::ReplacementCharacter))
        return QString();
    for (QChar c : text)
        if (!c.isPrint())
            return QString();
    return text;
}

/// An HTTP-date (RFC 9110 section 5.6.7) in any of its three forms, day names not checked: IMF-fixdate
/// "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 "Sunday, 06-Nov-94 08:49:37 GMT" (a two-digit year more than 50 years
/// ahead of @p thisYear is the past century's) and asctime() "Sun Nov  6 08:49:37 1994". Invalid when it is none of
/// them.
QDateTime httpDate(const QString &text, int thisYear)
{
    static const QRegularExpression kImf(
        QStringLiteral("^(?:[A-Za-z]{3}, )?(\\d{1,2}) ([A-Za-z]{3}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$"));
    static const QRegularExpression kRfc850(
        QStringLiteral("^[A-Za-z]+, (\\d{2})-([A-Za-z]{3})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$"));
    static const QRegularExpression kAsctime(
        QStringLiteral("^[A-Za-z]{3} ([A-Za-z]{3}) +(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$"));
    static const QStringList kMonths{QStringLiteral("Jan"), QStringLiteral("Feb"), QStringLiteral("Mar"),
                                     QStringLiteral("Apr"), QStringLiteral("May"), QStringLiteral("Jun"),
                                     QStringLiteral("Jul"), QStringLiteral("Aug"), QStringLiteral("Sep"),
                                     QStringLiteral("Oct"), QStringLiteral("Nov"), QStringLiteral("Dec")};
    // Captures in the order day, month, year, hour, minute, second.
    std::array<QString, 6> parts;
    bool twoDigitYear = false;
    if (const QRegularExpressionMatch m = kImf.match(text); m.hasMatch()) {
        parts = {m.captured(1), m.captured(2), m.captured(3), m.captured(4), m.captured(5), m.captured(6)};
    } else if (const QRegularExpressionMatch m = kRfc850.match(text); m.hasMatch()) {
        parts = {m.captured(1), m.captured(2), m.captured(3), m.captured(4), m.captured(5), m.captured(6)};
        twoDigitYear = true;
    } else if (const QRegularExpressionMatch m = kAsctime.match(text); m.hasMatch()) {
        parts = {m.captured(2), m.captured(1), m.captured(6), m.captured(3), m.captured(4), m.captured(5)};
    } else {
        return QDateTime();
    }
    const int month = int(kMonths.indexOf(parts[1])) + 1;
    int year = parts[2].toInt();
    if (twoDigitYear) {
        year += 2000;
        if (year > thisYear + 50)
            year -= 100;
    }
    const QDate date(year, month, parts[0].toInt());
    const QTime time(parts[3].toInt(), parts[4].toInt(), parts[5].toInt());
    return date.isValid() && time.isValid() ? QDateTime(date, time, Qt::UTC) : QDateTime();
}

} // namespace

QString UpstreamAnswer::words(const QByteArray &body)
{
    return wordsOf(QJsonDocument::fromJson(body), body);
}

QString UpstreamAnswer::inWords() const
{
    if (httpStatus == 0)
        return networkError;
    const QString said = words(body);
    return QStringLiteral("HTTP %1").arg(httpStatus) + (said.isEmpty() ? QString() : QStringLiteral(": ") + said);
}

std::optional<qint64> UpstreamAnswer::parseRetryAfter(QByteArrayView value, const QDateTime &nowUtc)
{
    constexpr qint64 kMaxSeconds = 1'000'000'000;
    value = value.trimmed();
    if (value.isEmpty())
        return std::nullopt;
    if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        if (value.size() > 9) // more than kMaxSeconds, and more than qint64 might hold
            return kMaxSeconds;
        return QByteArray(value.data(), value.size()).toLongLong();
    }
    QDateTime at = httpDate(QString::fromLatin1(value), nowUtc.date().year());
    if (!at.isValid()) // liberal: a date with a numeric offset, as RFC 2822 writes it
        at = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
    if (!at.isValid())
        return std::nullopt;
    return std::clamp<qint64>(nowUtc.secsTo(at), 0, kMaxSeconds);
}

UpstreamError UpstreamError::of(const QByteArray &body)
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    const QJsonObject error = document.object().value(QStringLiteral("error")).toObject();
    return UpstreamError{error.value(QStringLiteral("code")).toString(),
                         error.value(QStringLiteral("reason")).toString(), wordsOf(document, body)};
}

UpstreamVerdict UpstreamVerdict::of(const UpstreamAnswer &answer)
{
    UpstreamVerdict v;
    const int status = answer.httpStatus;
    if (status == 200) {
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(answer.body, &parseError);
        const QJsonObject record = document.object().value(QStringLiteral("data")).toObject();
        const std::optional<TransactionStatus> s =
            TransactionNames::statusFromString(record.value(QStringLiteral("transaction_status")).toString());
        if (parseError.error != QJsonParseError::NoError || !s) {
            v.errorCode = QStringLiteral("unreadable_answer");
            v.errorDescription = QStringLiteral("the upstream answered 200 with a body that is not a transaction");
            return v;
        }
        v.kind = *s == TransactionStatus::Success  ? Kind::Success
                 : *s == TransactionStatus::Failed ? Kind::Failed
                                                   : Kind::Pending;
        v.upstreamId = record.value(QStringLiteral("transaction_id")).toInteger();
        v.referenceId = record.value(QStringLiteral("reference_id")).toString();
        v.redeemCode = record.value(QStringLiteral("redeem_code")).toString();
        return v;
    }
    static const QList<int> kDefinite{400, 401, 402, 403, 409, 422};
    if (kDefinite.contains(status)) {
        v.kind = Kind::Refused;
        const UpstreamError error = UpstreamError::of(answer.body);
        v.errorCode = !error.reason.isEmpty() ? error.reason
                      : !error.code.isEmpty() ? error.code
                                              : QStringLiteral("http_%1").arg(status);
        v.errorDescription = error.words;
        if (v.errorDescription.isEmpty())
            v.errorDescription = QStringLiteral("the upstream refused the sale (HTTP %1)").arg(status);
        return v;
    }
    if (status == 0) {
        v.errorCode = QStringLiteral("no_answer");
        v.errorDescription = answer.networkError;
    } else {
        v.errorCode = QStringLiteral("http_%1").arg(status);
        v.errorDescription = QStringLiteral("the upstream answered HTTP %1; the outcome is not known yet").arg(status);
        const QString words = UpstreamAnswer::words(answer.body);
        if (!words.isEmpty())
            v.errorDescription += QStringLiteral(" (it said: %1)").arg(words);
    }
    return v;
}

QString UpstreamVerdict::outcomeName() const
{
    switch (kind) {
    case Kind::Success:
        return QStringLiteral("SUCCESS");
    case Kind::Failed:
        return QStringLiteral("FAILED");
    case Kind::Pending:
        return QStringLiteral("PENDING");
    case Kind::Refused:
        return QStringLiteral("refused");
    case Kind::Unknown:
        return QStringLiteral("unknown");
    }
    return QString();
}

namespace {

/// Whether @p url has the scheme, host and port of @p base (a missing port read as its scheme's default) and no user
/// info: the only place the upstream's key is sent.
bool onHostOf(const QUrl &base, const QUrl &url)
{
    const auto port = [](const QUrl &u) { return u.port(u.scheme() == QLatin1String("https") ? 443 : 80); };
    return url.isValid() && !url.host().isEmpty() && url.userInfo().isEmpty() && url.scheme() == base.scheme() &&
           url.host().compare(base.host(), Qt::CaseInsensitive) == 0 && port(url) == port(base);
}

} // namespace

UpstreamClient::UpstreamClient(const Clock &clock, int timeoutMs, QObject *parent)
    : QObject(parent), m_clock(clock), m_timeoutMs(timeoutMs), m_curl(kConnectionsPerHost)
{}

std::optional<QUrl> UpstreamClient::onUpstreamHost(const UpstreamSettings &settings, const QString &location)
{
    const QUrl base(settings.baseUrl + QLatin1Char('/')); // "x" lies under the base URL, "/x" at the host's root
    const QUrl reference(location.trimmed(), QUrl::StrictMode);
    if (location.trimmed().isEmpty() || !reference.isValid() || !base.isValid())
        return std::nullopt;
    QUrl url = base.resolved(reference);
    url.setFragment(QString());
    if (!onHostOf(base, url))
        return std::nullopt;
    return url;
}

CurlClient::Request UpstreamClient::prepared(const QByteArray &method, QByteArray url,
                                             const QByteArray &authorization) const
{
    CurlClient::Request request;
    request.method = method;
    request.url = std::move(url);
    request.timeoutMs = m_timeoutMs;
    request.maxAnswerBytes = m_maxAnswerBytes;
    request.headers = {"Authorization: " + authorization, QByteArrayLiteral("Accept: application/json")};
    if (method == "POST")
        request.headers.append(QByteArrayLiteral("Content-Type: application/json"));
    return request;
}

const QByteArray &UpstreamClient::urlFor(const UpstreamSettings &settings, const QString &path)
{
    if (settings.baseUrl != m_urlsBaseUrl) {
        m_urls.clear();
        m_urlsBaseUrl = settings.baseUrl;
    }
    if (const auto found = m_urls.constFind(path); found != m_urls.cend())
        return found.value();
    constexpr qsizetype kMaxRemembered = 64; // GETs name one sale each: keep the fixed endpoints, not every sale
    if (m_urls.size() >= kMaxRemembered)
        m_urls.clear();
    return *m_urls.insert(path, settings.url(path).toEncoded());
}

void UpstreamClient::call(const UpstreamSettings &settings, const QByteArray &method, const QString &path,
                          const QByteArray &body, Done done, Delivery delivery)
{
    CurlClient::Request request = prepared(method, urlFor(settings, path), settings.authorization());
    request.body = body;
    // A connection of its own, closed after: a kept-alive one the upstream closed meanwhile would fail the sale's
    // only send, and is the one case where the network layer sends a request again by itself.
    request.freshConnection = delivery == Delivery::AtMostOnce;
    start(std::move(request), std::move(done));
}

void UpstreamClient::send(const UpstreamSettings &settings, const Request &request, Done done)
{
    if (!onHostOf(QUrl(settings.baseUrl), request.url)) {
        UpstreamAnswer refused;
        refused.networkError = QStringLiteral("%1 is not on the upstream's own host %2: not sent")
                                   .arg(request.url.toString(QUrl::RemoveUserInfo), QUrl(settings.baseUrl).authority());
        QMetaObject::invokeMethod(
            this, [done = std::move(done), refused] { done(refused); }, Qt::QueuedConnection);
        return;
    }
    CurlClient::Request prepared = this->prepared(request.method, request.url.toEncoded(), settings.authorization());
    prepared.body = request.body;
    for (const auto &[name, value] : request.headers)
        prepared.headers.append(name + ": " + value);
    start(std::move(prepared), std::move(done));
}

void UpstreamClient::start(CurlClient::Request request, Done done)
{
    const qint64 startedMs = m_clock.nowMs();
    m_curl.send(std::move(request), [this, startedMs, done = std::move(done)](CurlClient::Response response) {
        UpstreamAnswer answer;
        answer.latencyMs = qMax(qint64(0), m_clock.nowMs() - startedMs);
        answer.tooLarge = response.tooLarge;
        if (response.tooLarge) {
            answer.networkError = QStringLiteral("an answer larger than %1 bytes").arg(m_maxAnswerBytes);
        } else if (response.timedOut) {
            answer.networkError = QStringLiteral("no answer within %1 ms").arg(m_timeoutMs);
        } else if (response.httpStatus == 0) {
            answer.networkError = response.error;
        } else {
            answer.httpStatus = response.httpStatus;
            answer.body = std::move(response.body);
            if (const QByteArray retryAfter = response.header("Retry-After"); !retryAfter.isEmpty())
                answer.retryAfterSeconds = UpstreamAnswer::parseRetryAfter(retryAfter, m_clock.nowUtc());
            answer.etag = response.header("ETag");
        }
        done(answer);
    });
}

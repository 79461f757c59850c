#include "plansync.h"

#include "apierror.h"
#include "clock.h"
#include "operatorcatalog.h"
#include "plancatalogue.h"
#include "plancataloguestore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>

Q_LOGGING_CATEGORY(lcPlanSync, "rechargedesk.plans.sync")

namespace {

constexpr QLatin1String kPlansPath("/plans/mobile/prepaid-plans");

QString pairName(const QString &operatorCode, const QString &circleCode)
{
    return QStringLiteral("(%1, %2)").arg(operatorCode, circleCode);
}

/// host[:port] of the upstream, as people and the catalogue's `upstream_host` name it.
QString hostOf(const UpstreamSettings &upstream)
{
    const QUrl url(upstream.baseUrl);
    return url.port() == -1 ? url.host() : url.host() + QLatin1Char(':') + QString::number(url.port());
}

/// The spec error's description of a refusal body, or the start of the body.
QString errorText(int status, const QByteArray &body)
{
    const QJsonObject error = QJsonDocument::fromJson(body).object().value(QLatin1String("error")).toObject();
    const QString description = error.value(QLatin1String("description")).toString();
    return QStringLiteral("HTTP %1%2")
        .arg(status)
        .arg(description.isEmpty() ? QString() : QStringLiteral(": ") + description.left(200));
}

/// Retry-After (RFC 9110 section 10.2.3) in seconds: delay-seconds or an HTTP-date, cut to `max`; 1 when
/// missing or unreadable.
int retryAfterSeconds(const QByteArray &header, const QDateTime &nowUtc, int max)
{
    const QByteArray value = header.trimmed();
    bool ok = false;
    qint64 seconds = value.toLongLong(&ok);
    if (!ok) {
        const QDateTime at = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
        if (!at.isValid())
            return 1;
        seconds = nowUtc.secsTo(at);
    }
    return int(std::clamp<qint64>(seconds, 0, max));
}

} // namespace

int PlanSyncReport::count(Outcome outcome) const
{
    return int(std::count_if(pairs.cbegin(), pairs.cend(), [outcome](const Pair &p) { return p.outcome == outcome; }));
}

QStringList PlanSyncReport::failures() const
{
    QStringList out;
    for (const Pair &pair : pairs) {
        if (pair.outcome == Outcome::Failed)
            out.append(pairName(pair.operatorCode, pair.circleCode) + QStringLiteral(": ") + pair.reason);
    }
    return out;
}

PlanSync::PlanSync(const OperatorCatalog &operators, PlanCatalogueStore &store, const Clock &clock,
                   PlanSyncOptions options, QObject *parent)
    : QObject(parent), m_operators(operators), m_store(store), m_clock(clock), m_options(options)
{
    m_gap.setSingleShot(true);
    m_gap.setTimerType(Qt::PreciseTimer); // never earlier than Retry-After
    connect(&m_gap, &QTimer::timeout, this, &PlanSync::sendCurrent);
    for (const OperatorInfo &op : m_operators.operators(ProductKind::Mobile)) {
        for (const CircleInfo &circle : m_operators.circles())
            m_pairs.append({op.code, circle.code});
    }
}

PlanSync::~PlanSync() = default;

bool PlanSync::start(const UpstreamSettings &upstream)
{
    if (m_running)
        return false;
    m_running = true;
    m_upstream = upstream;
    m_base = m_store.current();
    m_index = 0;
    m_rateLimitRetries = 0;
    m_entries = QJsonArray();
    m_report = PlanSyncReport();
    qCInfo(lcPlanSync, "plan sync from %s: %lld pairs", qPrintable(hostOf(upstream)), qlonglong(m_pairs.size()));
    sendCurrent();
    return true;
}

void PlanSync::sendCurrent()
{
    const auto &[operatorCode, circleCode] = m_pairs.at(m_index);
    QNetworkRequest request(m_upstream.url(kPlansPath));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Authorization", m_upstream.authorization());
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(m_options.timeoutMs);
    // As UpstreamClient: the key is for the configured upstream only, never for where a redirect points.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    // The stored ETag is the one this upstream gave; another upstream's would be meaningless.
    const PlanResponse *known = m_base->find(operatorCode, circleCode);
    if (known && !known->upstreamEtag.isEmpty() && m_base->origin().upstreamHost == hostOf(m_upstream))
        request.setRawHeader("If-None-Match", known->upstreamEtag);
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("operator_code"), operatorCode},
                                                      {QStringLiteral("circle_code"), circleCode}})
                                .toJson(QJsonDocument::Compact);
    ++m_report.requests;
    QNetworkReply *reply = m_network.post(request, body);
    connect(reply, &QNetworkReply::downloadProgress, reply, [this, reply](qint64 received, qint64) {
        if (received > m_options.maxBodyBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onReply(reply); });
}

void PlanSync::onReply(QNetworkReply *reply)
{
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    const auto &[operatorCode, circleCode] = m_pairs.at(m_index);
    if (status == 0) {
        advance(PlanSyncReport::Outcome::Failed, QStringLiteral("no answer: ") + reply->errorString());
        return;
    }
    if (body.size() > m_options.maxBodyBytes) {
        advance(PlanSyncReport::Outcome::Failed,
                QStringLiteral("answer larger than %1 bytes").arg(m_options.maxBodyBytes));
        return;
    }
    if (status == 429 && m_rateLimitRetries < m_options.maxRateLimitRetries) {
        ++m_rateLimitRetries;
        const int waitS =
            retryAfterSeconds(reply->rawHeader("Retry-After"), m_clock.nowUtc(), m_options.maxRetryAfterSeconds);
        qCInfo(lcPlanSync, "upstream rate limit at %s: retrying in %d s",
               qPrintable(pairName(operatorCode, circleCode)), waitS);
        m_gap.start(std::max(waitS * 1000, m_options.gapMs));
        return;
    }
    if (status == 304) {
        const PlanResponse *known = m_base->find(operatorCode, circleCode);
        if (!known) {
            advance(PlanSyncReport::Outcome::Failed, QStringLiteral("304 for plans this server does not have"));
            return;
        }
        const QJsonObject data = QJsonDocument::fromJson(known->body).object().value(QLatin1String("data")).toObject();
        advance(PlanSyncReport::Outcome::Unchanged, QString(), entryFrom(data, known->upstreamEtag));
        return;
    }
    if (status != 200) {
        advance(PlanSyncReport::Outcome::Failed, errorText(status, body));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        advance(
            PlanSyncReport::Outcome::Failed,
            QStringLiteral("invalid JSON: %1 (byte offset %2)").arg(parseError.errorString()).arg(parseError.offset));
        return;
    }
    const QJsonValue data = document.object().value(QLatin1String("data"));
    if (!data.isObject() || !data.toObject().value(QLatin1String("categories")).isArray()) {
        advance(PlanSyncReport::Outcome::Failed, QStringLiteral("the answer has no data.categories array"));
        return;
    }
    advance(PlanSyncReport::Outcome::Updated, QString(), entryFrom(data.toObject(), reply->rawHeader("ETag")));
}

QJsonObject PlanSync::entryFrom(const QJsonObject &data, const QByteArray &upstreamEtag) const
{
    const auto &[operatorCode, circleCode] = m_pairs.at(m_index);
    // Keep the file's fields only; the values themselves are checked by PlanCatalogue::fromJson.
    QJsonArray categories;
    for (const QJsonValue &categoryValue : data.value(QLatin1String("categories")).toArray()) {
        QJsonObject category = categoryValue.toObject();
        QJsonArray items;
        for (const QJsonValue &itemValue : category.value(QLatin1String("items")).toArray()) {
            QJsonObject item = itemValue.toObject();
            item.remove(QLatin1String("entity"));
            QJsonArray subscriptions;
            for (const QJsonValue &subscription : item.value(QLatin1String("subscriptions")).toArray()) {
                QJsonObject s = subscription.toObject();
                s.remove(QLatin1String("entity"));
                subscriptions.append(s);
            }
            if (item.contains(QLatin1String("subscriptions")))
                item.insert(QLatin1String("subscriptions"), subscriptions);
            items.append(item);
        }
        QJsonObject out{{QStringLiteral("name"), category.value(QLatin1String("name"))}};
        if (category.contains(QLatin1String("items")))
            out.insert(QLatin1String("items"), items);
        categories.append(out);
    }
    QJsonObject entry{{QStringLiteral("operator_code"), operatorCode},
                      {QStringLiteral("circle_code"), circleCode},
                      {QStringLiteral("categories"), categories}};
    if (!upstreamEtag.isEmpty())
        entry.insert(QLatin1String("upstream_etag"), QString::fromLatin1(upstreamEtag));
    return entry;
}

void PlanSync::advance(PlanSyncReport::Outcome outcome, const QString &reason, const QJsonObject &entry)
{
    const auto &[operatorCode, circleCode] = m_pairs.at(m_index);
    m_report.pairs.append({operatorCode, circleCode, outcome, reason});
    if (outcome == PlanSyncReport::Outcome::Failed)
        qCWarning(lcPlanSync, "plan sync %s failed: %s", qPrintable(pairName(operatorCode, circleCode)),
                  qPrintable(reason));
    else
        m_entries.append(entry);
    m_rateLimitRetries = 0;
    if (++m_index >= m_pairs.size()) {
        finish();
        return;
    }
    m_gap.start(m_options.gapMs);
}

void PlanSync::finish()
{
    const int failed = m_report.count(PlanSyncReport::Outcome::Failed);
    if (failed > 0) {
        m_report.error =
            QStringLiteral("%1 of %2 pairs failed; the catalogue in force is kept").arg(failed).arg(m_pairs.size());
    } else {
        const QDateTime now = m_clock.nowUtc();
        const QString host = hostOf(m_upstream);
        const QJsonObject file{
            {QStringLiteral("catalogue_version"), QStringLiteral("upstream %1").arg(IstTime::format(now))},
            {QStringLiteral("generated_by"), QStringLiteral("rechargedesk plans sync")},
            {QStringLiteral("source"), QString(QStringLiteral("upstream ") + host)},
            {QStringLiteral("upstream_host"), host},
            {QStringLiteral("updated_at"), IstTime::toIst(now).toString(Qt::ISODate)},
            {QStringLiteral("entries"), m_entries}};
        const QByteArray json = QJsonDocument(file).toJson(QJsonDocument::Compact) + '\n';
        PlanCatalogueError error;
        if (!PlanCatalogue::fromJson(json, m_operators, &error)) {
            // entries[i] is pair i: every pair answered when we get here.
            static const QRegularExpression entryIndex(QStringLiteral("^entries\\[(\\d+)\\]"));
            const QRegularExpressionMatch match = entryIndex.match(error.path);
            if (match.hasMatch() && match.captured(1).toLongLong() < m_report.pairs.size()) {
                PlanSyncReport::Pair &pair = m_report.pairs[match.captured(1).toLongLong()];
                pair.outcome = PlanSyncReport::Outcome::Failed;
                pair.reason = QStringLiteral("invalid plans: ") + error.toString();
            }
            m_report.error = QStringLiteral("the upstream's plans are invalid (%1); the catalogue in force is kept")
                                 .arg(error.toString());
        } else {
            try {
                m_store.install(json);
                m_report.installed = true;
            } catch (const ApiError &e) {
                m_report.error = e.description();
            } catch (const std::exception &e) {
                m_report.error = QString::fromUtf8(e.what());
            }
        }
    }
    if (m_report.installed)
        qCInfo(lcPlanSync, "plan sync done: %d updated, %d unchanged, %d requests",
               m_report.count(PlanSyncReport::Outcome::Updated), m_report.count(PlanSyncReport::Outcome::Unchanged),
               m_report.requests);
    else
        qCWarning(lcPlanSync, "plan sync installed nothing: %s", qPrintable(m_report.error));
    m_running = false;
    m_base.reset();
    Q_EMIT finished(m_report);
}

DailyTimer::DailyTimer(const Clock &clock, QTime at, std::function<void()> job, QObject *parent)
    : QObject(parent), m_clock(clock), m_at(at), m_job(std::move(job))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::VeryCoarseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        m_job();
        schedule();
    });
    schedule();
}

qint64 DailyTimer::msUntil(const QDateTime &now, QTime at)
{
    const QDateTime ist = IstTime::toIst(now);
    QDateTime next = IstTime::at(ist.date(), at);
    if (next <= ist)
        next = next.addDays(1);
    return ist.msecsTo(next);
}

void DailyTimer::schedule()
{
    m_timer.start(std::chrono::milliseconds(msUntil(m_clock.nowUtc(), m_at)));
}

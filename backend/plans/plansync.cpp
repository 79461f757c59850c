#include "plansync.h"

#include "apierror.h"
#include "clock.h"
#include "operatorcatalog.h"
#include "plancatalogue.h"
#include "plancataloguestore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
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

/// The catalogue file's entry of one pair from endpoint 4's `data` (entities and counts dropped; the values are
/// checked by PlanCatalogue::fromJson), with the upstream's ETag of it when there is one.
QJsonObject catalogueEntry(const QString &operatorCode, const QString &circleCode, const QJsonObject &data,
                           const QByteArray &upstreamEtag)
{
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

/// The same from the plans a catalogue serves for the pair.
QJsonObject catalogueEntry(const QString &operatorCode, const QString &circleCode, const PlanResponse &plans,
                           const QByteArray &upstreamEtag)
{
    const QJsonObject data = QJsonDocument::fromJson(plans.body).object().value(QLatin1String("data")).toObject();
    return catalogueEntry(operatorCode, circleCode, data, upstreamEtag);
}

void warnFailed(const PlanSyncReport::Pair &pair)
{
    qCWarning(lcPlanSync, "plan sync %s failed: %s", qPrintable(pairName(pair.operatorCode, pair.circleCode)),
              qPrintable(pair.reason));
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
    : QObject(parent), m_operators(operators), m_store(store), m_clock(clock), m_options(options),
      m_client(clock, options.timeoutMs)
{
    m_client.setMaxAnswerBytes(m_options.maxBodyBytes);
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
    UpstreamClient::Request request;
    request.method = "POST";
    request.url = m_upstream.url(kPlansPath);
    request.body = QJsonDocument(QJsonObject{{QStringLiteral("operator_code"), operatorCode},
                                             {QStringLiteral("circle_code"), circleCode}})
                       .toJson(QJsonDocument::Compact);
    // The stored ETag is the one this upstream gave; another upstream's would be meaningless.
    const PlanResponse *known = m_base->find(operatorCode, circleCode);
    if (known && !known->upstreamEtag.isEmpty() && baseIsFromThisUpstream())
        request.headers.append({"If-None-Match", known->upstreamEtag});
    ++m_report.requests;
    m_client.send(m_upstream, request, [this](const UpstreamAnswer &answer) { onAnswer(answer); });
}

void PlanSync::onAnswer(const UpstreamAnswer &answer)
{
    const auto &[operatorCode, circleCode] = m_pairs.at(m_index);
    if (answer.httpStatus == 0) { // no answer, or one larger than maxBodyBytes
        advance(PlanSyncReport::Outcome::Failed,
                answer.tooLarge ? answer.networkError : QStringLiteral("no answer: ") + answer.networkError);
        return;
    }
    if (answer.httpStatus == 429 && m_rateLimitRetries < m_options.maxRateLimitRetries) {
        ++m_rateLimitRetries;
        // No Retry-After, or one that cannot be read: a second.
        const int waitS =
            int(std::clamp<qint64>(answer.retryAfterSeconds.value_or(1), 0, m_options.maxRetryAfterSeconds));
        qCInfo(lcPlanSync, "upstream rate limit at %s: retrying in %d s",
               qPrintable(pairName(operatorCode, circleCode)), waitS);
        m_gap.start(std::max(waitS * 1000, m_options.gapMs));
        return;
    }
    if (answer.httpStatus == 304) {
        const PlanResponse *known = m_base->find(operatorCode, circleCode);
        if (!known) {
            advance(PlanSyncReport::Outcome::Failed, QStringLiteral("304 for plans this server does not have"));
            return;
        }
        advance(PlanSyncReport::Outcome::Unchanged, QString(),
                catalogueEntry(operatorCode, circleCode, *known, known->upstreamEtag));
        return;
    }
    if (answer.httpStatus != 200) {
        advance(PlanSyncReport::Outcome::Failed, answer.inWords());
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(answer.body, &parseError);
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
    advance(PlanSyncReport::Outcome::Updated, QString(),
            catalogueEntry(operatorCode, circleCode, data.toObject(), answer.etag));
}

void PlanSync::advance(PlanSyncReport::Outcome outcome, const QString &reason, const QJsonObject &entry)
{
    const auto &[operatorCode, circleCode] = m_pairs.at(m_index);
    m_report.pairs.append({operatorCode, circleCode, outcome, reason});
    if (outcome == PlanSyncReport::Outcome::Failed)
        warnFailed(m_report.pairs.constLast());
    m_entries.append(entry); // empty for a failed pair: finish() puts its plans in force there
    m_rateLimitRetries = 0;
    if (++m_index >= m_pairs.size()) {
        finish();
        return;
    }
    m_gap.start(m_options.gapMs);
}

bool PlanSync::baseIsFromThisUpstream() const
{
    return m_base->origin().upstreamHost == hostOf(m_upstream);
}

void PlanSync::keepPlansInForce(qsizetype index)
{
    const auto &[operatorCode, circleCode] = m_pairs.at(index);
    const PlanResponse *known = m_base->find(operatorCode, circleCode);
    // Its ETag only when this upstream gave it: it is sent back to this upstream as If-None-Match.
    m_entries[index] = known ? catalogueEntry(operatorCode, circleCode, *known,
                                              baseIsFromThisUpstream() ? known->upstreamEtag : QByteArray())
                             : QJsonObject();
}

bool PlanSync::assemble(QByteArray *json)
{
    const QDateTime now = m_clock.nowUtc();
    const QString host = hostOf(m_upstream);
    for (;;) {
        const QJsonObject file{
            {QStringLiteral("catalogue_version"), QStringLiteral("upstream %1").arg(IstTime::format(now))},
            {QStringLiteral("generated_by"), QStringLiteral("rechargedesk plans sync")},
            {QStringLiteral("source"), QString(QStringLiteral("upstream ") + host)},
            {QStringLiteral("upstream_host"), host},
            {QStringLiteral("updated_at"), IstTime::toIst(now).toString(Qt::ISODate)},
            {QStringLiteral("entries"), m_entries}};
        *json = QJsonDocument(file).toJson(QJsonDocument::Compact) + '\n';
        PlanCatalogueError error;
        if (PlanCatalogue::fromJson(*json, m_operators, &error))
            return true;
        // entries[i] is pair i. A pair whose new plans are invalid fails alone and keeps its plans in force; a
        // problem anywhere else (or in plans kept) leaves the catalogue in force whole.
        static const QRegularExpression entryIndex(QStringLiteral("^entries\\[(\\d+)\\]"));
        const QRegularExpressionMatch match = entryIndex.match(error.path);
        const qsizetype index = match.hasMatch() ? match.captured(1).toLongLong() : -1;
        if (index < 0 || index >= m_report.pairs.size() ||
            m_report.pairs.at(index).outcome == PlanSyncReport::Outcome::Failed) {
            m_report.error =
                QStringLiteral("the plans are invalid (%1); the catalogue in force is kept").arg(error.toString());
            return false;
        }
        PlanSyncReport::Pair &pair = m_report.pairs[index];
        pair.outcome = PlanSyncReport::Outcome::Failed;
        pair.reason = QStringLiteral("invalid plans: ") + error.toString();
        warnFailed(pair);
        keepPlansInForce(index);
    }
}

void PlanSync::finish()
{
    // A pair that failed keeps the plans it has; the others update (issue 26, "Liberal in what it accepts").
    for (qsizetype i = 0; i < m_report.pairs.size(); ++i) {
        if (m_report.pairs.at(i).outcome == PlanSyncReport::Outcome::Failed)
            keepPlansInForce(i);
    }
    if (m_report.count(PlanSyncReport::Outcome::Failed) == m_pairs.size()) {
        m_report.error = QStringLiteral("every pair failed; the catalogue in force is kept");
    } else if (QByteArray json; assemble(&json)) {
        try {
            m_store.install(json);
            m_report.installed = true;
        } catch (const ApiError &e) {
            m_report.error = e.description();
        } catch (const std::exception &e) {
            m_report.error = QString::fromUtf8(e.what());
        }
    }
    const int failed = m_report.count(PlanSyncReport::Outcome::Failed);
    if (m_report.installed && failed > 0) {
        QStringList names;
        for (const PlanSyncReport::Pair &pair : std::as_const(m_report.pairs)) {
            if (pair.outcome == PlanSyncReport::Outcome::Failed)
                names.append(pairName(pair.operatorCode, pair.circleCode));
        }
        m_report.error = QStringLiteral("%1 of %2 pairs failed and keep the plans they had: %3")
                             .arg(failed)
                             .arg(m_pairs.size())
                             .arg(names.join(QStringLiteral(", ")));
    }
    if (m_report.installed)
        qCInfo(lcPlanSync, "plan sync done: %d updated, %d unchanged, %d failed, %d requests",
               m_report.count(PlanSyncReport::Outcome::Updated), m_report.count(PlanSyncReport::Outcome::Unchanged),
               failed, m_report.requests);
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

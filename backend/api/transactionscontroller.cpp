#include "transactionscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/page.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "services/transactionservice.h"
#include "services/walletservice.h"

namespace {

ApiError badQuery(const QString &field, const QString &description)
{
    return QueryParameters::invalid(field, description);
}

qint64 istBound(const QUrlQuery &query, const QString &name, bool endOfDay)
{
    if (!query.hasQueryItem(name))
        return 0;
    const QString text = query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    const QDateTime time = IstTime::parse(text);
    if (!time.isValid())
        throw badQuery(name, name + QStringLiteral(" must be an IST date YYYY-MM-DD or YYYY-MM-DD HH:MM:SS"));
    // A bare date as `to` includes that whole day.
    return (endOfDay && text.size() == 10 ? time.addDays(1) : time).toMSecsSinceEpoch();
}

/// The status check's `wait_s`: 0 when absent (answer at once), else a whole number of seconds from 0 to
/// SettleWaiters::kMaxWaitSeconds; anything else is 400 `invalid_query_parameter`.
int waitSeconds(const QUrlQuery &query)
{
    if (!query.hasQueryItem(QStringLiteral("wait_s")))
        return 0;
    const std::optional<qint64> seconds =
        JsonFields::coerceInteger(query.queryItemValue(QStringLiteral("wait_s"), QUrl::FullyDecoded).trimmed());
    if (!seconds || *seconds < 0 || *seconds > SettleWaiters::kMaxWaitSeconds)
        throw badQuery(QStringLiteral("wait_s"), QStringLiteral("wait_s must be a whole number of seconds from 0 to %1")
                                                     .arg(SettleWaiters::kMaxWaitSeconds));
    return int(*seconds);
}

TransactionFilter parseFilter(const QUrlQuery &query, const std::function<qint64()> &attentionCutoff)
{
    TransactionFilter filter;
    const auto value = [&query](const QString &name) {
        return query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    };
    if (query.hasQueryItem(QStringLiteral("type"))) {
        filter.type = TransactionNames::typeFromString(value(QStringLiteral("type")).toUpper());
        if (!filter.type)
            throw badQuery(QStringLiteral("type"), QStringLiteral("type must be MOBILE, VOUCHER or DTH"));
    }
    if (query.hasQueryItem(QStringLiteral("status"))) {
        filter.status = TransactionNames::statusFromString(value(QStringLiteral("status")).toUpper());
        if (!filter.status)
            throw badQuery(QStringLiteral("status"), QStringLiteral("status must be SUCCESS, PENDING or FAILED"));
    }
    if (query.hasQueryItem(QStringLiteral("upstream_state"))) {
        const QString state = value(QStringLiteral("upstream_state"));
        if (state == QLatin1String("unknown"))
            filter.upstreamUnknown = true;
        else if (state == QLatin1String("attention"))
            filter.upstreamAttentionBeforeMs = attentionCutoff();
        else
            throw badQuery(QStringLiteral("upstream_state"),
                           QStringLiteral("upstream_state must be unknown (sales still unknown at the upstream) or "
                                          "attention (sales waiting on the upstream too long)"));
    }
    if (query.hasQueryItem(QStringLiteral("tender"))) {
        filter.tender = value(QStringLiteral("tender")).toLower();
        if (!TransactionNames::isTender(filter.tender) && filter.tender != QLatin1String("none"))
            throw badQuery(QStringLiteral("tender"),
                           QStringLiteral("tender must be cash, upi or none (sales without a tender)"));
    }
    filter.operatorCode = value(QStringLiteral("operator")).toUpper();
    filter.referenceId = value(QStringLiteral("reference_id"));
    filter.fromMs = istBound(query, QStringLiteral("from"), false);
    filter.toMs = istBound(query, QStringLiteral("to"), true);
    filter.limit = QueryParameters::limit(query, filter.limit, 200);
    filter.search = value(QStringLiteral("q"));
    if (filter.search.size() > 64)
        throw badQuery(QStringLiteral("q"), QStringLiteral("q must be at most 64 characters"));
    if (query.hasQueryItem(QStringLiteral("sort"))) {
        static const QHash<QString, TransactionFilter::Order> orders{
            {QStringLiteral("newest"), TransactionFilter::Order::NewestFirst},
            {QStringLiteral("oldest"), TransactionFilter::Order::OldestFirst},
            {QStringLiteral("amount_desc"), TransactionFilter::Order::AmountHighFirst},
            {QStringLiteral("amount_asc"), TransactionFilter::Order::AmountLowFirst}};
        const auto order = orders.constFind(value(QStringLiteral("sort")));
        if (order == orders.cend())
            throw badQuery(QStringLiteral("sort"),
                           QStringLiteral("sort must be newest, oldest, amount_desc or amount_asc"));
        filter.order = *order;
    }
    if (query.hasQueryItem(QStringLiteral("cursor"))) {
        // The cursor is base64url of "id" or "amount:id", the last row of the previous page.
        const auto decoded =
            QByteArray::fromBase64Encoding(value(QStringLiteral("cursor")).toLatin1(),
                                           QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        const QList<QByteArray> parts = decoded.decoded.split(':');
        const std::optional<qint64> id = JsonFields::coerceInteger(QString::fromLatin1(parts.last()));
        const std::optional<qint64> amount = parts.size() == 2
                                                 ? JsonFields::coerceInteger(QString::fromLatin1(parts.first()))
                                                 : std::optional<qint64>(0);
        if (!decoded || parts.size() > 2 || !id || !amount || *id <= 0)
            throw QueryParameters::badCursor();
        if (parts.size() != 2)
            throw QueryParameters::badCursor();
        filter.afterId = *id;
        const bool byAmount = filter.order == TransactionFilter::Order::AmountHighFirst ||
                              filter.order == TransactionFilter::Order::AmountLowFirst;
        (byAmount ? filter.afterAmount : filter.afterCreatedAt) = *amount;
    }
    return filter;
}

} // namespace

void TransactionsController::answerStatus(const AuthContext &caller, qint64 id, const ApiReply &reply)
{
    const TransactionRecord record = m_transactions.get(caller, id);
    const QByteArray body = record.dataEnvelope();
    m_finalRecords.keep(caller, record, body);
    reply.send(200, "application/json", body);
}

void TransactionsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/transactions/summary"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(
                       m_transactions.totals(request.caller, parseFilter(request.query, m_attentionCutoff)).toJson());
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/transactions/{transaction_id}/ledger"),
               Access::Admin, [this](const ApiRequest &request, const ApiReply &reply) {
                   const qint64 id = request.idCapture(0);
                   m_transactions.get(request.caller, id); // 404 unless it is the caller's
                   Page<LedgerEntry> page{m_wallets.ledgerForTransaction(id), {}, false};
                   reply.sendData(page.toJson());
               });
    // HTTP worker threads answer a kept finished sale from FinalRecordCache, and read any other sale of the sandbox
    // through their own database connection; an unknown id and a live sale (its upstream object) go to the server
    // thread.
    router.add(
        QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/transactions/{transaction_id}"), Access::Pos,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const qint64 id = request.idCapture(0);
            const int wait = waitSeconds(request.query);
            QByteArray body = m_finalRecords.find(request.caller, id);
            if (body.isNull()) {
                const TransactionRecord record = m_transactions.get(request.caller, id);
                if (wait > 0 && record.status == TransactionStatus::Pending &&
                    m_settleWaiters.wait(id, wait, [this, caller = request.caller, id, reply] {
                        try {
                            answerStatus(caller, id, reply);
                        } catch (...) {
                            reply.sendException(std::current_exception());
                        }
                    }))
                    return;
                body = record.dataEnvelope();
                m_finalRecords.keep(request.caller, record, body);
            }
            reply.send(200, "application/json", body);
        },
        [this](const ApiRouter::WorkerResources &worker, const ApiRequest &request, const ApiReply &reply) {
            const qint64 id = request.idCapture(0);
            const int wait = waitSeconds(request.query);
            QByteArray body = m_finalRecords.find(request.caller, id, FinalRecordCache::MissCount::DontCount);
            if (body.isNull()) {
                // Read on the worker's own connection; an unknown id (404), a live sale and a PENDING sale to wait
                // for go to the server thread.
                const std::optional<TransactionRecord> record =
                    worker.database ? m_transactions.getThrough(*worker.database, request.caller, id) : std::nullopt;
                if (!record || (wait > 0 && record->status == TransactionStatus::Pending))
                    return false;
                m_finalRecords.countMiss();
                body = record->dataEnvelope();
                m_finalRecords.keep(request.caller, *record, body);
            }
            reply.send(200, "application/json", body);
            return true;
        });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/transactions"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const TransactionFilter filter = parseFilter(request.query, m_attentionCutoff);
                   Page<TransactionRecord> page{m_transactions.list(request.caller, filter), {}, true};
                   const QList<TransactionRecord> &records = page.items;
                   if (records.size() == filter.limit) {
                       const TransactionRecord &last = records.last();
                       const bool byAmount = filter.order == TransactionFilter::Order::AmountHighFirst ||
                                             filter.order == TransactionFilter::Order::AmountLowFirst;
                       // "amount:id" or "created_at:id": the sort key of the last row, then its id.
                       const QByteArray position = QByteArray::number(byAmount ? last.billAmount : last.createdAtMs) +
                                                   ':' + QByteArray::number(last.transactionId);
                       page.nextCursor = QString::fromLatin1(
                           position.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
                   }
                   reply.sendData(page.toJson());
               });
}

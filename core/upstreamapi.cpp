#include "upstreamapi.h"

namespace {
const QString kUpstreamPath = QStringLiteral("/api/v1/upstream");

QString transactionPath(qint64 transactionId, const char *tail)
{
    return QStringLiteral("/api/v1/transactions/%1/%2").arg(transactionId).arg(QLatin1String(tail));
}
} // namespace

TypedCall<UpstreamInfo> UpstreamApi::get() const
{
    return {m_api.get(kUpstreamPath), &UpstreamInfo::fromJson};
}

TypedCall<UpstreamInfo> UpstreamApi::save(const QJsonObject &settings) const
{
    return {m_api.put(kUpstreamPath, settings), &UpstreamInfo::fromJson};
}

TypedCall<UpstreamInfo> UpstreamApi::clear() const
{
    return {m_api.remove(kUpstreamPath), &UpstreamInfo::fromJson};
}

TypedCall<UpstreamCheck> UpstreamApi::check() const
{
    return {m_api.post(kUpstreamPath + QStringLiteral("/check"), QJsonObject{}), &UpstreamCheck::fromJson};
}

TypedCall<UpstreamCallList> UpstreamApi::calls(qint64 transactionId) const
{
    return {m_api.get(transactionPath(transactionId, "upstream-calls")), &UpstreamCallList::fromJson};
}

TypedCall<TransactionRecord> UpstreamApi::recheck(qint64 transactionId) const
{
    return {m_api.post(transactionPath(transactionId, "upstream-recheck"), QJsonObject{}),
            &TransactionRecord::fromJson};
}

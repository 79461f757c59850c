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

TypedCall<TransactionRecord> UpstreamApi::resolve(qint64 transactionId, const QString &status, const QString &note,
                                                  const QString &redeemCode) const
{
    QJsonObject body{{QStringLiteral("status"), status}, {QStringLiteral("note"), note}};
    if (!redeemCode.isEmpty())
        body.insert(QStringLiteral("redeem_code"), redeemCode);
    return {m_api.post(transactionPath(transactionId, "resolve"), body), &TransactionRecord::fromJson};
}

namespace {
/// /api/v1/upstreams/{name}, the name percent-encoded.
QString namedPath(const QString &name)
{
    return QStringLiteral("/api/v1/upstreams/%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(name)));
}

/// /api/v1/upstreams/{name}/statements.
QString statementsPath(const QString &name)
{
    return namedPath(name) + QStringLiteral("/statements");
}
} // namespace

TypedCall<StatementRun> UpstreamApi::importStatement(const QString &name, const QString &fileName, const QString &csv,
                                                     const QMap<QString, QString> &columns) const
{
    QJsonObject body{{QStringLiteral("file_name"), fileName}, {QStringLiteral("csv"), csv}};
    if (!columns.isEmpty()) {
        QJsonObject mapped;
        for (auto it = columns.cbegin(); it != columns.cend(); ++it)
            mapped.insert(it.key(), it.value());
        body.insert(QStringLiteral("columns"), mapped);
    }
    return {m_api.post(statementsPath(name), body), &StatementRun::fromJson};
}

TypedCall<Collection<StatementRun>> UpstreamApi::statementRuns(const QString &name) const
{
    return {m_api.get(statementsPath(name)), &Collection<StatementRun>::fromJson};
}

TypedCall<StatementRun> UpstreamApi::statementRun(const QString &name, qint64 id) const
{
    return {m_api.get(statementsPath(name) + QStringLiteral("/%1").arg(id)), &StatementRun::fromJson};
}

TypedCall<UpstreamList> UpstreamApi::list() const
{
    return {m_api.get(QStringLiteral("/api/v1/upstreams")), &UpstreamList::fromJson};
}

TypedCall<UpstreamInfo> UpstreamApi::save(const QString &name, const QJsonObject &body) const
{
    return {m_api.put(namedPath(name), body), &UpstreamInfo::fromJson};
}

TypedCall<UpstreamInfo> UpstreamApi::remove(const QString &name) const
{
    return {m_api.remove(namedPath(name)), &UpstreamInfo::fromJson};
}

TypedCall<UpstreamCheck> UpstreamApi::check(const QString &name) const
{
    return {m_api.post(namedPath(name) + QStringLiteral("/check"), QJsonObject{}), &UpstreamCheck::fromJson};
}

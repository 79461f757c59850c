#include "plancataloguerepository.h"

#include "store/database.h"

#include <QCryptographicHash>

qint64 PlanCatalogueRepository::version()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT version FROM plan_catalogue WHERE id = 1"));
    const qint64 version = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return version;
}

std::optional<StoredPlanCatalogue> PlanCatalogueRepository::load()
{
    QSqlQuery &q = m_db.run(QStringLiteral(
        "SELECT version, body, source, upstream_host, updated_at, stored_at FROM plan_catalogue WHERE id = 1"));
    std::optional<StoredPlanCatalogue> stored;
    if (q.next()) {
        stored.emplace();
        stored->version = q.value(0).toLongLong();
        stored->json = q.value(1).toString().toUtf8();
        stored->origin.source = q.value(2).toString();
        stored->origin.upstreamHost = q.value(3).toString();
        if (const qint64 updatedAt = q.value(4).toLongLong(); updatedAt > 0)
            stored->origin.updatedAt = QDateTime::fromMSecsSinceEpoch(updatedAt, Qt::UTC);
        stored->storedAtMs = q.value(5).toLongLong();
    }
    q.finish();
    return stored;
}

qint64 PlanCatalogueRepository::publish(const QByteArray &json, const PlanCatalogueOrigin &origin, qint64 nowMs)
{
    const qint64 updatedAt = origin.updatedAt.isValid() ? origin.updatedAt.toMSecsSinceEpoch() : 0;
    const QString sha = QString::fromLatin1(QCryptographicHash::hash(json, QCryptographicHash::Sha256).toHex());
    QSqlQuery &q = m_db.run(
        QStringLiteral("INSERT INTO plan_catalogue (id, version, body, sha256, source, upstream_host, updated_at,"
                       " stored_at) VALUES (1, 1, ?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT (id) DO UPDATE SET version = plan_catalogue.version + 1, body = excluded.body,"
                       " sha256 = excluded.sha256, source = excluded.source, upstream_host = excluded.upstream_host,"
                       " updated_at = excluded.updated_at, stored_at = excluded.stored_at"
                       " RETURNING version"),
        {QString::fromUtf8(json), sha, textValue(origin.source), textValue(origin.upstreamHost), updatedAt, nowMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("plan catalogue publish returned no version"));
    const qint64 version = q.value(0).toLongLong();
    q.finish();
    return version;
}

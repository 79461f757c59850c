#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

class Database;

/// One call made to the upstream (GET /api/v1/transactions/{id}/upstream-calls).
struct UpstreamCall
{
    qint64 transactionId = 0;
    qint64 atMs = 0;    ///< UTC ms when the call started
    QString method;     ///< "POST" or "GET"
    QString endpoint;   ///< path under the base URL
    int httpStatus = 0; ///< 0: no HTTP answer
    qint64 latencyMs = 0;
    QString error;   ///< network error or refusal in words; empty for none
    QString outcome; ///< "SUCCESS", "PENDING", "FAILED", "refused" or "unknown"

    /// The item of upstream-contract.md (times in IST, null for no status / no error).
    QJsonObject toJson() const;
};

/// Records every call to the upstream and reads them back for a sale. Throws DatabaseError.
class UpstreamCallLog
{
public:
    explicit UpstreamCallLog(Database &db) : m_db(db) {}
    void record(const UpstreamCall &call);
    /// The calls made for a sale, oldest first.
    QList<UpstreamCall> forTransaction(qint64 transactionId);

private:
    Database &m_db;
};

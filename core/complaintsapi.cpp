#include "complaintsapi.h"

#include <QUrlQuery>

namespace {

QString complaintPath(qint64 id)
{
    return ComplaintsApi::listPath() + QLatin1Char('/') + QString::number(id);
}

} // namespace

TypedCall<Complaint> ComplaintsApi::raise(qint64 transactionId, const QString &reason, const QString &note) const
{
    QJsonObject body{{QStringLiteral("reason"), reason}};
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    return {m_api.post(QStringLiteral("/api/v1/transactions/%1/complaints").arg(transactionId), body),
            &Complaint::fromJson};
}

TypedCall<Complaint> ComplaintsApi::get(qint64 id) const
{
    return {m_api.get(complaintPath(id)), &Complaint::fromJson};
}

TypedCall<Collection<Complaint>> ComplaintsApi::ofSale(qint64 transactionId) const
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("transaction_id"), QString::number(transactionId));
    return {m_api.get(listPath(), query), &Collection<Complaint>::fromJson};
}

TypedCall<Complaint> ComplaintsApi::resolve(qint64 id, const QString &outcome, const QString &words,
                                            const QString &operatorReference) const
{
    QJsonObject body{{QStringLiteral("outcome"), outcome}};
    if (!words.isEmpty())
        body.insert(QStringLiteral("words"), words);
    if (!operatorReference.isEmpty())
        body.insert(QStringLiteral("operator_reference"), operatorReference);
    return {m_api.post(complaintPath(id) + QStringLiteral("/resolve"), body), &Complaint::fromJson};
}

QString ComplaintsApi::listPath()
{
    return QStringLiteral("/api/v1/complaints");
}

#include "shiftsapi.h"

namespace {

QString shiftPath(qint64 id)
{
    return ShiftsApi::listPath() + QLatin1Char('/') + QString::number(id);
}

} // namespace

TypedCall<Shift> ShiftsApi::open(const QString &terminal, Paise openingCash) const
{
    const QJsonObject body{{QStringLiteral("terminal"), terminal},
                           {QStringLiteral("opening_cash"), Money::format(openingCash)}};
    return {m_api.post(listPath(), body), &Shift::fromJson};
}

TypedCall<Shift> ShiftsApi::current() const
{
    return {m_api.get(listPath() + QStringLiteral("/current")), &Shift::fromJson};
}

TypedCall<Shift> ShiftsApi::get(qint64 id) const
{
    return {m_api.get(shiftPath(id)), &Shift::fromJson};
}

TypedCall<Shift> ShiftsApi::cashMove(qint64 id, const QString &direction, Paise amount, const QString &reason,
                                     const QString &pin) const
{
    const QJsonObject body{{QStringLiteral("direction"), direction},
                           {QStringLiteral("amount"), Money::format(amount)},
                           {QStringLiteral("reason"), reason},
                           {QStringLiteral("pin"), pin}};
    return {m_api.post(shiftPath(id) + QStringLiteral("/cash-moves"), body), &Shift::fromJson};
}

TypedCall<Shift> ShiftsApi::close(qint64 id, const QMap<int, qint64> &counts, Paise coins, const QString &note) const
{
    QJsonObject countsJson;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        countsJson.insert(QString::number(it.key()), it.value());
    QJsonObject body{{QStringLiteral("counts"), countsJson}, {QStringLiteral("coins"), Money::format(coins)}};
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    return {m_api.post(shiftPath(id) + QStringLiteral("/close"), body), &Shift::fromJson};
}

QString ShiftsApi::listPath()
{
    return QStringLiteral("/api/v1/shifts");
}

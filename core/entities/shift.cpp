#include "entities/shift.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QJsonArray>

namespace {

template <class T> QJsonArray arrayOf(const QList<T> &items)
{
    QJsonArray array;
    for (const T &item : items)
        array.append(item.toJson());
    return array;
}

/// Ends a codec: the value, or nullopt with the reader's error.
template <class T> std::optional<T> finish(const AnswerReader &in, T value, QString *error)
{
    if (!in.ok())
        return EntityFields::failed<T>(in, error);
    return value;
}

QJsonValue moneyOrNull(const std::optional<Paise> &amount)
{
    return amount ? QJsonValue(Money::format(*amount)) : QJsonValue(QJsonValue::Null);
}

/// A nested object decoded by `decode`; a problem inside is recorded on `in` under `field`.
template <class T, class Decode> T nested(AnswerReader &in, QStringView field, Decode decode)
{
    const QJsonObject json = in.object(field);
    if (!in.ok())
        return T();
    QString why;
    const std::optional<T> value = decode(json, &why);
    if (!value) {
        in.fail(field, why);
        return T();
    }
    return *value;
}

/// `counts` of a closed shift: {"500": n, …}, every key a denomination, every value a count >= 0.
QMap<int, qint64> readCounts(AnswerReader &in, const QJsonObject &json)
{
    QMap<int, qint64> counts;
    const QJsonValue value = json.value(QStringLiteral("counts"));
    if (value.isNull() || value.isUndefined())
        return counts; // null while open (absent reads the same, as AnswerReader's optional fields)
    const QJsonObject object = in.object(u"counts");
    AnswerReader reader(object, QStringLiteral("shift counts"));
    for (auto it = object.begin(); in.ok() && it != object.end(); ++it) {
        bool number = false;
        const int denomination = it.key().toInt(&number);
        if (!number || std::find(Shift::kDenominations.begin(), Shift::kDenominations.end(), denomination) ==
                           Shift::kDenominations.end()) {
            in.fail(u"counts", QStringLiteral("has the unknown denomination \"%1\"").arg(it.key()));
            break;
        }
        const qint64 count = reader.integer(it.key());
        if (!reader.ok() || count < 0) {
            in.fail(u"counts",
                    reader.ok() ? QStringLiteral("has a negative count for %1").arg(it.key()) : reader.error());
            break;
        }
        counts.insert(denomination, count);
    }
    return counts;
}

QJsonValue countsJson(const QMap<int, qint64> &counts)
{
    if (counts.isEmpty())
        return QJsonValue::Null;
    QJsonObject json;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        json.insert(QString::number(it.key()), it.value());
    return json;
}

} // namespace

QJsonObject Shift::TenderTotal::toJson() const
{
    return QJsonObject{{QStringLiteral("count"), count}, {QStringLiteral("amount"), Money::format(amount)}};
}

std::optional<Shift::TenderTotal> Shift::TenderTotal::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("tender total"));
    TenderTotal total;
    total.count = in.integer(u"count");
    total.amount = in.money(u"amount");
    return finish(in, total, error);
}

QJsonObject Shift::TenderTotals::toJson() const
{
    return QJsonObject{{QStringLiteral("cash"), cash.toJson()},
                       {QStringLiteral("upi"), upi.toJson()},
                       {QStringLiteral("unrecorded"), unrecorded.toJson()}};
}

std::optional<Shift::TenderTotals> Shift::TenderTotals::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("tender totals"));
    TenderTotals totals;
    totals.cash = nested<TenderTotal>(in, u"cash", &TenderTotal::fromJson);
    totals.upi = nested<TenderTotal>(in, u"upi", &TenderTotal::fromJson);
    totals.unrecorded = nested<TenderTotal>(in, u"unrecorded", &TenderTotal::fromJson);
    return finish(in, totals, error);
}

QJsonObject Shift::CashMove::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("direction"), direction},
                       {QStringLiteral("amount"), Money::format(amount)},
                       {QStringLiteral("reason"), reason},
                       {QStringLiteral("at"), EntityFields::dateTime(at)},
                       {QStringLiteral("by"), by}};
}

std::optional<Shift::CashMove> Shift::CashMove::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("cash move"));
    CashMove move;
    move.id = in.integer(u"id");
    move.direction = EntityFields::oneOf(in, u"direction", {u"in", u"out"});
    move.amount = in.money(u"amount");
    move.reason = in.string(u"reason");
    move.at = in.dateTime(u"at");
    move.by = in.string(u"by");
    return finish(in, move, error);
}

QJsonObject Shift::UpiReturn::toJson() const
{
    return QJsonObject{{QStringLiteral("transaction_id"), transactionId},
                       {QStringLiteral("number"), number},
                       {QStringLiteral("amount"), Money::format(amount)}};
}

std::optional<Shift::UpiReturn> Shift::UpiReturn::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upi to return"));
    UpiReturn item;
    item.transactionId = in.integer(u"transaction_id");
    item.number = in.string(u"number");
    item.amount = in.money(u"amount");
    return finish(in, item, error);
}

Paise Shift::countedTotal(const QMap<int, qint64> &counts, Paise coins)
{
    Paise total = coins;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        total += Paise(it.key()) * Money::kPaisePerRupee * it.value();
    return total;
}

QJsonObject Shift::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("shift")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("terminal"), terminal},
                       {QStringLiteral("clerk"), clerk},
                       {QStringLiteral("mode"), mode},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("opened_at"), EntityFields::dateTime(openedAt)},
                       {QStringLiteral("closed_at"),
                        closedAt.isValid() ? EntityFields::dateTime(closedAt) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("opening_cash"), Money::format(openingCash)},
                       {QStringLiteral("sales"), sales.toJson()},
                       {QStringLiteral("cash_in"), Money::format(cashIn)},
                       {QStringLiteral("cash_out"), Money::format(cashOut)},
                       {QStringLiteral("cash_refunds"), cashRefunds.toJson()},
                       {QStringLiteral("upi_to_return"), arrayOf(upiToReturn)},
                       {QStringLiteral("blind"), blind},
                       {QStringLiteral("expected_cash"), moneyOrNull(expectedCash)},
                       {QStringLiteral("counted_cash"), moneyOrNull(countedCash)},
                       {QStringLiteral("difference"), moneyOrNull(difference)},
                       {QStringLiteral("counts"), countsJson(counts)},
                       {QStringLiteral("coins"), moneyOrNull(coins)},
                       {QStringLiteral("closed_by"),
                        EntityFields::stringOrNull(closedBy.isEmpty() ? std::nullopt : std::optional(closedBy))},
                       {QStringLiteral("close_note"),
                        EntityFields::stringOrNull(closeNote.isEmpty() ? std::nullopt : std::optional(closeNote))},
                       {QStringLiteral("cash_moves"), arrayOf(cashMoves)}};
}

std::optional<Shift> Shift::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("shift"));
    EntityFields::expectEntity(in, u"shift");
    Shift shift;
    shift.id = in.integer(u"id");
    shift.terminal = in.string(u"terminal");
    shift.clerk = in.string(u"clerk");
    shift.mode = EntityFields::oneOf(in, u"mode", {u"test", u"live"});
    shift.state = EntityFields::oneOf(in, u"state", {u"open", u"closed"});
    shift.openedAt = in.dateTime(u"opened_at");
    shift.closedAt = EntityFields::optionalDateTime(in, u"closed_at").value_or(QDateTime());
    shift.openingCash = in.money(u"opening_cash");
    shift.sales = nested<TenderTotals>(in, u"sales", &TenderTotals::fromJson);
    shift.cashIn = in.money(u"cash_in");
    shift.cashOut = in.money(u"cash_out");
    shift.cashRefunds = nested<TenderTotal>(in, u"cash_refunds", &TenderTotal::fromJson);
    shift.upiToReturn = in.list<UpiReturn>(u"upi_to_return", &UpiReturn::fromJson);
    shift.blind = in.boolean(u"blind");
    shift.expectedCash = in.optionalMoney(u"expected_cash");
    shift.countedCash = in.optionalMoney(u"counted_cash");
    shift.difference = in.optionalMoney(u"difference");
    shift.counts = readCounts(in, json);
    shift.coins = in.optionalMoney(u"coins");
    shift.closedBy = in.optionalString(u"closed_by").value_or(QString());
    shift.closeNote = in.optionalString(u"close_note").value_or(QString());
    shift.cashMoves = in.list<CashMove>(u"cash_moves", &CashMove::fromJson);
    return finish(in, shift, error);
}

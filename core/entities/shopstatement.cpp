#include "entities/shopstatement.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QJsonArray>

namespace {

constexpr auto kDateFormat = "yyyy-MM-dd";

QDate readDate(AnswerReader &in, QStringView field)
{
    const QString text = in.string(field);
    const QDate date = QDate::fromString(text, QString::fromLatin1(kDateFormat));
    if (in.ok() && !date.isValid())
        in.fail(field, QStringLiteral("is not a YYYY-MM-DD date"));
    return date;
}

} // namespace

const QStringList &ShopStatement::kinds()
{
    static const QStringList names{QStringLiteral("topup"),  QStringLiteral("fund_request"), QStringLiteral("sale"),
                                   QStringLiteral("refund"), QStringLiteral("reversal"),     QStringLiteral("other")};
    return names;
}

QJsonObject ShopStatement::Line::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("at"), EntityFields::dateTime(at)},
                       {QStringLiteral("kind"), kind},
                       {QStringLiteral("amount"), Money::format(amount)},
                       {QStringLiteral("balance"), Money::format(balance)},
                       {QStringLiteral("transaction_id"),
                        transactionId > 0 ? QJsonValue(transactionId) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("number"), number},
                       {QStringLiteral("operator_code"), operatorCode},
                       {QStringLiteral("reference"), reference},
                       {QStringLiteral("note"), note},
                       {QStringLiteral("actor"), actor}};
}

std::optional<ShopStatement::Line> ShopStatement::Line::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("statement line"));
    Line line;
    line.id = in.integer(u"id");
    line.at = in.dateTime(u"at");
    line.kind =
        EntityFields::oneOf(in, u"kind", {u"topup", u"fund_request", u"sale", u"refund", u"reversal", u"other"});
    line.amount = in.money(u"amount");
    line.balance = in.money(u"balance");
    line.transactionId = in.optionalInteger(u"transaction_id").value_or(0);
    line.number = in.string(u"number");
    line.operatorCode = in.string(u"operator_code");
    line.reference = in.string(u"reference");
    line.note = in.string(u"note");
    line.actor = in.string(u"actor");
    if (!in.ok())
        return EntityFields::failed<Line>(in, error);
    return line;
}

void ShopStatement::Totals::add(const QString &kind, Paise amount)
{
    if (kind == QLatin1String("topup"))
        topups += amount;
    else if (kind == QLatin1String("sale"))
        sales += amount;
    else if (kind == QLatin1String("refund"))
        refunds += amount;
    else if (kind == QLatin1String("reversal"))
        reversals += amount;
    else if (kind == QLatin1String("fund_request"))
        fundRequests += amount;
    else
        other += amount;
}

QJsonObject ShopStatement::Totals::toJson() const
{
    return QJsonObject{{QStringLiteral("topups"), Money::format(topups)},
                       {QStringLiteral("sales"), Money::format(sales)},
                       {QStringLiteral("refunds"), Money::format(refunds)},
                       {QStringLiteral("reversals"), Money::format(reversals)},
                       {QStringLiteral("fund_requests"), Money::format(fundRequests)},
                       {QStringLiteral("other"), Money::format(other)}};
}

std::optional<ShopStatement::Totals> ShopStatement::Totals::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("statement totals"));
    Totals totals;
    totals.topups = in.money(u"topups");
    totals.sales = in.money(u"sales");
    totals.refunds = in.money(u"refunds");
    totals.reversals = in.money(u"reversals");
    totals.fundRequests = in.money(u"fund_requests");
    totals.other = in.money(u"other");
    if (!in.ok())
        return EntityFields::failed<Totals>(in, error);
    return totals;
}

QJsonObject ShopStatement::toJson() const
{
    QJsonArray lineArray;
    for (const Line &line : lines)
        lineArray.append(line.toJson());
    return QJsonObject{
        {QStringLiteral("entity"), QStringLiteral("shop_statement")},
        {QStringLiteral("shop"), QJsonObject{{QStringLiteral("id"), shopId},
                                             {QStringLiteral("name"), name},
                                             {QStringLiteral("owner"), owner},
                                             {QStringLiteral("mobile"), mobile},
                                             {QStringLiteral("gstin"), gstin}}},
        {QStringLiteral("from"), from.toString(QString::fromLatin1(kDateFormat))},
        {QStringLiteral("to"), to.toString(QString::fromLatin1(kDateFormat))},
        {QStringLiteral("opening_balance"), Money::format(opening)},
        {QStringLiteral("closing_balance"), Money::format(closing)},
        {QStringLiteral("totals"), totals.toJson()},
        {QStringLiteral("line_count"), lineCount},
        {QStringLiteral("lines"), lineArray},
        {QStringLiteral("next_cursor"), nextCursor.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(nextCursor)}};
}

std::optional<ShopStatement> ShopStatement::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("shop statement"));
    EntityFields::expectEntity(in, u"shop_statement");
    ShopStatement s;
    const QJsonObject shop = in.object(u"shop");
    if (in.ok()) {
        AnswerReader shopIn(shop, QStringLiteral("statement shop"));
        s.shopId = shopIn.integer(u"id");
        s.name = shopIn.string(u"name");
        s.owner = shopIn.string(u"owner");
        s.mobile = shopIn.string(u"mobile");
        s.gstin = shopIn.string(u"gstin");
        if (!shopIn.ok())
            in.fail(u"shop", shopIn.error());
    }
    s.from = readDate(in, u"from");
    s.to = readDate(in, u"to");
    s.opening = in.money(u"opening_balance");
    s.closing = in.money(u"closing_balance");
    s.lineCount = in.integer(u"line_count");
    const QJsonObject totals = in.object(u"totals");
    if (in.ok()) {
        QString why;
        const std::optional<Totals> decoded = Totals::fromJson(totals, &why);
        if (decoded)
            s.totals = *decoded;
        else
            in.fail(u"totals", why);
    }
    if (in.ok())
        s.lines = in.list<Line>(u"lines", &Line::fromJson);
    s.nextCursor = in.optionalString(u"next_cursor").value_or(QString());
    if (!in.ok())
        return EntityFields::failed<ShopStatement>(in, error);
    return s;
}

#include "entities/transactionsummary.h"

#include "answerreader.h"

QJsonObject TransactionSummary::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("transaction_summary")},
                       {QStringLiteral("count"), count},
                       {QStringLiteral("success"), success},
                       {QStringLiteral("pending"), pending},
                       {QStringLiteral("failed"), failed},
                       {QStringLiteral("bill_amount"), Money::format(billAmount)},
                       {QStringLiteral("discount"), Money::format(discount)},
                       {QStringLiteral("paid"), Money::format(paid)}};
}

std::optional<TransactionSummary> TransactionSummary::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("transaction summary"));
    TransactionSummary summary;
    summary.count = in.integer(u"count");
    summary.success = in.integer(u"success");
    summary.pending = in.integer(u"pending");
    summary.failed = in.integer(u"failed");
    summary.billAmount = in.money(u"bill_amount");
    summary.discount = in.money(u"discount");
    summary.paid = in.money(u"paid");
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return summary;
}

#include "saleupstream.h"

#include "entityfields.h"

std::optional<SaleUpstream> SaleUpstream::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream"));
    SaleUpstream sale;
    sale.state =
        EntityFields::oneOf(in, u"state", {u"queued", u"sent", u"unknown", u"pending", u"settled", u"refused"});
    sale.referenceId = in.string(u"reference_id");
    sale.transactionId = in.optionalInteger(u"transaction_id");
    sale.attempts = in.integer(u"attempts");
    const QJsonValue errorValue = json.value(QStringLiteral("error"));
    if (in.ok() && !errorValue.isNull() && !errorValue.isUndefined()) {
        AnswerReader errorIn(in.object(u"error"), QStringLiteral("upstream error"));
        Error why;
        why.code = errorIn.string(u"code");
        why.description = errorIn.string(u"description");
        if (!errorIn.ok())
            in.fail(u"error", errorIn.error());
        sale.error = why;
    }
    if (!in.ok())
        return EntityFields::failed<SaleUpstream>(in, error);
    return sale;
}

QJsonObject SaleUpstream::toJson() const
{
    QJsonValue why = QJsonValue::Null;
    if (error)
        why = QJsonObject{{QStringLiteral("code"), error->code}, {QStringLiteral("description"), error->description}};
    return QJsonObject{{QStringLiteral("state"), state},
                       {QStringLiteral("reference_id"), referenceId},
                       {QStringLiteral("transaction_id"), EntityFields::integerOrNull(transactionId)},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("error"), why}};
}

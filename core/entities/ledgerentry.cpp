#include "entities/ledgerentry.h"

#include "clock.h"
#include "entityfields.h"

namespace LedgerNames {

QString kind(LedgerKind kind)
{
    switch (kind) {
    case LedgerKind::Opening:
        return QStringLiteral("opening");
    case LedgerKind::Topup:
        return QStringLiteral("topup");
    case LedgerKind::Debit:
        return QStringLiteral("debit");
    case LedgerKind::Refund:
        return QStringLiteral("refund");
    }
    Q_UNREACHABLE();
}

std::optional<LedgerKind> kindFromString(const QString &text)
{
    for (LedgerKind k : {LedgerKind::Opening, LedgerKind::Topup, LedgerKind::Debit, LedgerKind::Refund}) {
        if (kind(k) == text)
            return k;
    }
    return std::nullopt;
}

} // namespace LedgerNames

QJsonObject LedgerEntry::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("ledger_entry")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("kind"), LedgerNames::kind(kind)},
                       {QStringLiteral("amount"), Money::format(amount)},
                       {QStringLiteral("amount_paise"), amount},
                       {QStringLiteral("transaction_id"),
                        transactionId > 0 ? QJsonValue(transactionId) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("note"), note},
                       {QStringLiteral("actor"), actor},
                       {QStringLiteral("clerk"), clerk},
                       {QStringLiteral("datetime"), IstTime::formatMs(createdAtMs)}};
}

std::optional<LedgerEntry> LedgerEntry::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("ledger entry"));
    LedgerEntry entry;
    entry.id = in.integer(u"id");
    const QString kindText = in.string(u"kind");
    const std::optional<LedgerKind> kind = LedgerNames::kindFromString(kindText);
    if (in.ok() && !kind)
        in.fail(u"kind", QStringLiteral("is not opening, topup, debit or refund (\"%1\")").arg(kindText));
    entry.amount = in.money(u"amount");
    if (in.ok() && in.integer(u"amount_paise") != entry.amount)
        in.fail(u"amount_paise", QStringLiteral("does not match amount"));
    entry.transactionId = in.optionalInteger(u"transaction_id").value_or(0);
    entry.note = in.string(u"note");
    entry.actor = in.string(u"actor");
    entry.clerk = in.optionalString(u"clerk").value_or(QString());
    entry.createdAtMs = in.dateTime(u"datetime").toMSecsSinceEpoch();
    if (!in.ok())
        return EntityFields::failed<LedgerEntry>(in, error);
    entry.kind = *kind;
    return entry;
}

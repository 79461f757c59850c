#include "shops/shopstatementbuilder.h"

#include "clock.h"
#include "csvtext.h"
#include "shops/shopledgerrepository.h"

#include <QRegularExpression>

namespace {

qint64 startMs(const QDate &day)
{
    return IstTime::at(day, QTime(0, 0)).toMSecsSinceEpoch();
}

/// The reference written in a top-up's note: "ref X" (a distributor's top-up) or "UTR X" (a fund request).
QString referenceInNote(const QString &note)
{
    static const QRegularExpression reference(QStringLiteral("\\b(?:ref|UTR) ([^\\s:,]+)"));
    const QRegularExpressionMatch match = reference.match(note);
    return match.hasMatch() ? match.captured(1) : QString();
}

QByteArray row(const QStringList &fields)
{
    return CsvText::line(fields).toUtf8();
}

} // namespace

ShopStatement ShopStatementBuilder::build(const Shop &shop, const QDate &from, const QDate &to, int limit,
                                          qint64 offset)
{
    ShopStatement s;
    s.shopId = shop.id;
    s.name = shop.name;
    s.owner = shop.owner;
    s.mobile = shop.mobile;
    s.gstin = shop.gstin;
    s.from = from;
    s.to = to;
    const qint64 fromMs = startMs(from);
    const qint64 endMs = startMs(to.addDays(1));
    ShopLedgerRepository ledger(m_db);

    s.opening = ledger.sumBefore(shop.id, fromMs);
    for (const ShopLedgerRepository::KindTotal &total : ledger.totalsByKind(shop.id, fromMs, endMs)) {
        s.totals.add(total.kind, total.amount);
        s.lineCount += total.count;
    }
    s.closing = s.opening + s.totals.sum();

    Paise running = s.opening + ledger.sumOfFirst(shop.id, fromMs, endMs, offset);
    const qint64 pageSize = limit < 0 ? s.lineCount : limit;
    s.lines = ledger.lines(shop.id, fromMs, endMs, pageSize, offset);
    for (ShopStatement::Line &line : s.lines) {
        running += line.amount;
        line.balance = running;
        if (line.transactionId == 0)
            line.reference = referenceInNote(line.note);
    }
    if (limit >= 0 && offset + s.lines.size() < s.lineCount)
        s.nextCursor = QString::number(offset + s.lines.size());
    return s;
}

QByteArray ShopStatementBuilder::csv(const ShopStatement &statement)
{
    QByteArray out = row({QStringLiteral("id"), QStringLiteral("at"), QStringLiteral("kind"), QStringLiteral("amount"),
                          QStringLiteral("balance"), QStringLiteral("transaction_id"), QStringLiteral("number"),
                          QStringLiteral("operator_code"), QStringLiteral("reference"), QStringLiteral("note"),
                          QStringLiteral("actor")});
    const QString fromText = IstTime::format(IstTime::at(statement.from, QTime(0, 0)));
    out += row({QString(), fromText, QStringLiteral("opening"), QString(), CsvText::rupees(statement.opening),
                QString(), QString(), QString(), QString(), QStringLiteral("opening balance"), QString()});
    for (const ShopStatement::Line &line : statement.lines)
        out += row({QString::number(line.id), IstTime::format(line.at), line.kind, CsvText::rupees(line.amount),
                    CsvText::rupees(line.balance),
                    line.transactionId > 0 ? QString::number(line.transactionId) : QString(), line.number,
                    line.operatorCode, line.reference, line.note, line.actor});
    const QString toText = IstTime::format(IstTime::at(statement.to, QTime(23, 59, 59)));
    out += row({QString(), toText, QStringLiteral("closing"), QString(), CsvText::rupees(statement.closing), QString(),
                QString(), QString(), QString(), QStringLiteral("closing balance"), QString()});
    return out;
}

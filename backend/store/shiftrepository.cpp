#include "shiftrepository.h"

#include "database.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace {

const QString kColumns = QStringLiteral(
    "SELECT id, account_id, mode, user_id, clerk, terminal, opened_at_ms, opening_cash_paise, state, closed_at_ms,"
    " counts_json, coins_paise, counted_cash_paise, expected_cash_paise, closed_by, close_note FROM shifts");

std::optional<Paise> paiseOrNull(const QSqlQuery &q, int column)
{
    return q.isNull(column) ? std::nullopt : std::optional<Paise>(q.value(column).toLongLong());
}

QMap<int, qint64> countsFromJson(const QString &text)
{
    QMap<int, qint64> counts;
    const QJsonObject json = QJsonDocument::fromJson(text.toUtf8()).object();
    for (auto it = json.begin(); it != json.end(); ++it)
        counts.insert(it.key().toInt(), it.value().toInteger());
    return counts;
}

QString countsToJson(const QMap<int, qint64> &counts)
{
    QJsonObject json;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        json.insert(QString::number(it.key()), it.value());
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

StoredShift readShift(const QSqlQuery &q)
{
    StoredShift shift;
    shift.id = q.value(0).toLongLong();
    shift.accountId = q.value(1).toLongLong();
    shift.mode = ModeNames::modeFromString(q.value(2).toString()).value_or(Mode::Test);
    shift.userId = q.value(3).toLongLong();
    shift.clerk = q.value(4).toString();
    shift.terminal = q.value(5).toString();
    shift.openedAtMs = q.value(6).toLongLong();
    shift.openingCash = q.value(7).toLongLong();
    shift.open = q.value(8).toString() == QLatin1String("open");
    shift.closedAtMs = q.value(9).toLongLong();
    if (!q.isNull(10))
        shift.counts = countsFromJson(q.value(10).toString());
    shift.coins = paiseOrNull(q, 11);
    shift.countedCash = paiseOrNull(q, 12);
    shift.expectedCash = paiseOrNull(q, 13);
    shift.closedBy = q.value(14).toString();
    shift.closeNote = q.value(15).toString();
    return shift;
}

} // namespace

Paise ShiftTakings::expectedCash(Paise openingCash) const
{
    return openingCash + sales.cash.amount - cashRefunds.amount + cashIn - cashOut;
}

qint64 ShiftRepository::insert(const StoredShift &shift)
{
    return m_db.insertReturningId(
        QStringLiteral("INSERT INTO shifts (account_id, mode, user_id, clerk, terminal, opened_at_ms,"
                       " opening_cash_paise, state) VALUES (?, ?, ?, ?, ?, ?, ?, 'open')"),
        {shift.accountId, ModeNames::mode(shift.mode), shift.userId, shift.clerk, shift.terminal, shift.openedAtMs,
         shift.openingCash});
}

std::optional<StoredShift> ShiftRepository::one(const QString &where, const QVariantList &values, bool forUpdate)
{
    const QString lock = forUpdate && m_db.isPostgres() ? QStringLiteral(" FOR UPDATE") : QString();
    QSqlQuery &q = m_db.run(kColumns + QStringLiteral(" WHERE ") + where + lock, values);
    std::optional<StoredShift> shift;
    if (q.next())
        shift = readShift(q);
    q.finish();
    return shift;
}

std::optional<StoredShift> ShiftRepository::find(qint64 accountId, Mode mode, qint64 id, bool forUpdate)
{
    return one(QStringLiteral("id = ? AND account_id = ? AND mode = ?"), {id, accountId, ModeNames::mode(mode)},
               forUpdate);
}

std::optional<StoredShift> ShiftRepository::openOfUser(qint64 accountId, Mode mode, qint64 userId, bool forUpdate)
{
    // Served by the partial unique index shifts_open_user.
    return one(QStringLiteral("account_id = ? AND mode = ? AND user_id = ? AND state = 'open'"),
               {accountId, ModeNames::mode(mode), userId}, forUpdate);
}

std::optional<StoredShift> ShiftRepository::openOnTerminal(qint64 accountId, Mode mode, const QString &terminal)
{
    return one(QStringLiteral("account_id = ? AND mode = ? AND lower(terminal) = lower(?) AND state = 'open'"),
               {accountId, ModeNames::mode(mode), terminal}, false);
}

QList<StoredShift> ShiftRepository::list(qint64 accountId, Mode mode, const ShiftFilter &filter)
{
    QString sql = kColumns + QStringLiteral(" WHERE account_id = ? AND mode = ?");
    QVariantList values{accountId, ModeNames::mode(mode)};
    if (filter.openedFromMs > 0) {
        sql += QStringLiteral(" AND opened_at_ms >= ?");
        values << filter.openedFromMs;
    }
    if (filter.openedToMs > 0) {
        sql += QStringLiteral(" AND opened_at_ms < ?");
        values << filter.openedToMs;
    }
    if (!filter.clerk.isEmpty()) {
        sql += QStringLiteral(" AND lower(clerk) = lower(?)");
        values << filter.clerk;
    }
    if (!filter.terminal.isEmpty()) {
        sql += QStringLiteral(" AND lower(terminal) = lower(?)");
        values << filter.terminal;
    }
    if (filter.open) {
        sql += QStringLiteral(" AND state = ?");
        values << (*filter.open ? QStringLiteral("open") : QStringLiteral("closed"));
    }
    if (filter.userId > 0) {
        sql += QStringLiteral(" AND user_id = ?");
        values << filter.userId;
    }
    if (filter.beforeId > 0) {
        sql += QStringLiteral(" AND id < ?");
        values << filter.beforeId;
    }
    sql += QStringLiteral(" ORDER BY id DESC LIMIT ?");
    values << filter.limit;
    QSqlQuery &q = m_db.run(sql, values);
    QList<StoredShift> shifts;
    while (q.next())
        shifts.append(readShift(q));
    q.finish();
    return shifts;
}

void ShiftRepository::addCashMove(qint64 shiftId, const QString &direction, Paise amount, const QString &reason,
                                  qint64 atMs, const QString &actor)
{
    m_db.run(QStringLiteral("INSERT INTO shift_cash_moves (shift_id, direction, amount_paise, reason, at_ms, actor)"
                            " VALUES (?, ?, ?, ?, ?, ?)"),
             {shiftId, direction, amount, reason, atMs, actor})
        .finish();
}

ShiftTakings ShiftRepository::takings(qint64 shiftId)
{
    ShiftTakings takings;
    // Taken: what the customer paid for (SUCCESS, PENDING, and FAILED after the customer had paid).
    QSqlQuery &sales = m_db.run(
        QStringLiteral("SELECT COALESCE(tender, ''), COUNT(*), COALESCE(SUM(bill_amount), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'FAILED' THEN bill_amount ELSE 0 END), 0)"
                       " FROM transactions WHERE shift_id = ? AND (status <> 'FAILED' OR failed_after_pending = 1)"
                       " GROUP BY 1"),
        {shiftId});
    while (sales.next()) {
        const QString tender = sales.value(0).toString();
        const Shift::TenderTotal taken{sales.value(1).toLongLong(), sales.value(2).toLongLong()};
        if (tender == QLatin1String("cash")) {
            takings.sales.cash = taken;
            takings.cashRefunds = {sales.value(3).toLongLong(), sales.value(4).toLongLong()};
        } else if (tender == QLatin1String("upi")) {
            takings.sales.upi = taken;
        } else {
            takings.sales.unrecorded = taken;
        }
    }
    sales.finish();

    // UPI to return: every failed UPI sale. The terminal sends a UPI sale only after the clerk saw the money arrive
    // ("UPI received"), so even a sale that failed at once was paid, and the shop's bank account holds it.
    QSqlQuery &upi = m_db.run(QStringLiteral("SELECT id, number, bill_amount FROM transactions WHERE shift_id = ?"
                                             " AND tender = 'upi' AND status = 'FAILED'"
                                             " ORDER BY id"),
                              {shiftId});
    while (upi.next())
        takings.upiToReturn.append({upi.value(0).toLongLong(), upi.value(1).toString(), upi.value(2).toLongLong()});
    upi.finish();

    QSqlQuery &moves = m_db.run(QStringLiteral("SELECT id, direction, amount_paise, reason, at_ms, actor"
                                               " FROM shift_cash_moves WHERE shift_id = ? ORDER BY id"),
                                {shiftId});
    while (moves.next()) {
        Shift::CashMove move{moves.value(0).toLongLong(),
                             moves.value(1).toString(),
                             moves.value(2).toLongLong(),
                             moves.value(3).toString(),
                             QDateTime::fromMSecsSinceEpoch(moves.value(4).toLongLong(), Qt::UTC),
                             moves.value(5).toString()};
        (move.direction == QLatin1String("in") ? takings.cashIn : takings.cashOut) += move.amount;
        takings.cashMoves.append(std::move(move));
    }
    moves.finish();
    return takings;
}

bool ShiftRepository::close(const StoredShift &shift)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE shifts SET state = 'closed', closed_at_ms = ?, counts_json = ?, coins_paise = ?,"
                       " counted_cash_paise = ?, expected_cash_paise = ?, closed_by = ?, close_note = ?"
                       " WHERE id = ? AND state = 'open'"),
        {shift.closedAtMs, countsToJson(shift.counts), shift.coins.value_or(0), shift.countedCash.value_or(0),
         shift.expectedCash.value_or(0), shift.closedBy, shift.closeNote, shift.id});
    const bool closed = q.numRowsAffected() > 0;
    q.finish();
    return closed;
}

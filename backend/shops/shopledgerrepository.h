#pragma once

#include "entities/shopstatement.h"
#include "money.h"

#include <QList>
#include <QString>

class Database;

/// The reads of a shop's live wallet_ledger that its statement needs (issue 30, "a statement"), over a time range
/// [fromMs, endMs) in UTC ms, on the (account_id, mode, created_at, id) index. Each row's statement kind is decided
/// in SQL (see ShopStatementBuilder): a debit is `sale`; a refund `reversal` when its note is
/// SettlementService::reversalNote(), else `refund`; a top-up `fund_request` when its note starts "fund request ",
/// else `topup`; anything else `other`. Throws DatabaseError.
class ShopLedgerRepository
{
public:
    explicit ShopLedgerRepository(Database &db) : m_db(db) {}

    /// The sum of one kind's rows in the range and how many there are.
    struct KindTotal
    {
        QString kind;
        Paise amount = 0;
        qint64 count = 0;
    };

    /// The ledger's sum of the account's live rows written before `beforeMs` (the opening balance).
    Paise sumBefore(qint64 accountId, qint64 beforeMs);
    /// Per kind, the sum and count of the rows in the range.
    QList<KindTotal> totalsByKind(qint64 accountId, qint64 fromMs, qint64 endMs);
    /// The sum of the first `count` rows of the range in statement order (created_at, id): the running balance's
    /// start of a page that begins at row `count`.
    Paise sumOfFirst(qint64 accountId, qint64 fromMs, qint64 endMs, qint64 count);
    /// `limit` rows of the range from row `offset`, in statement order, with their sale's number, operator and
    /// reference_id (Line::reference holds the sale's reference_id, empty for a row of no sale); Line::balance is
    /// left 0 for the caller to run.
    QList<ShopStatement::Line> lines(qint64 accountId, qint64 fromMs, qint64 endMs, qint64 limit, qint64 offset);

private:
    Database &m_db;
};

#pragma once

#include "entities/shop.h"
#include "entities/shopstatement.h"

#include <QByteArray>
#include <QDate>

class Database;

/// Writes a shop's live statement from its wallet_ledger rows (read by ShopLedgerRepository; issue 30, "a
/// statement"): the opening balance (the ledger's sum before `from` 00:00 IST), the totals and the count of every line
/// through `to` 23:59:59.999 IST (one grouped query on the (account_id, mode, created_at, id) index), one page of lines
/// with their running balance, and the closing balance (opening + every line). Line kinds: a debit is a `sale`; a
/// refund is a `reversal` when its sale had been SUCCESS (SettlementService::reversalNote()), else `refund`; a top-up
/// is a `fund_request` when its note starts "fund request ", else `topup`; anything else (the opening credit) `other`.
/// The reference is the top-up's "ref …", the fund request's "UTR …" or the sale's reference_id. Money in paise. Throws
/// DatabaseError.
class ShopStatementBuilder
{
public:
    explicit ShopStatementBuilder(Database &db) : m_db(db) {}

    /// The statement of `shop` for from..to with `limit` lines from `offset` (limit < 0: every line, no cursor).
    ShopStatement build(const Shop &shop, const QDate &from, const QDate &to, int limit, qint64 offset);
    /// `statement` (built with every line) as CSV (CsvText: RFC 4180, formulas guarded): a header row, an opening
    /// row, the lines, a closing row; amounts as plain rupees "-249.00"; times IST.
    static QByteArray csv(const ShopStatement &statement);

private:
    Database &m_db;
};

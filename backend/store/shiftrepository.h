#pragma once

#include "auth/authcontext.h"
#include "entities/shift.h"
#include "money.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>

class Database;

/// A shifts row (migration 17): a person's shift at a terminal. Money in paise, times UTC ms.
struct StoredShift
{
    qint64 id = 0;
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    qint64 userId = 0;
    QString clerk; ///< the person's name when the shift was opened
    QString terminal;
    qint64 openedAtMs = 0;
    Paise openingCash = 0;
    bool open = true;
    qint64 closedAtMs = 0;             ///< 0 while open
    QMap<int, qint64> counts;          ///< notes by denomination (rupees); empty while open
    std::optional<Paise> coins;        ///< nullopt while open
    std::optional<Paise> countedCash;  ///< nullopt while open
    std::optional<Paise> expectedCash; ///< frozen at the close; nullopt while open
    QString closedBy;                  ///< the closing actor's name; "" while open
    QString closeNote;                 ///< "" when none
};

/// What a shift took and moved, read from its sales and cash moves (never stored: always the sales as they now
/// stand, so a sale that fails later moves from "taken" to a refund by itself).
struct ShiftTakings
{
    Shift::TenderTotals sales;      ///< SUCCESS, PENDING and failed-after-pending sales, by tender (bill)
    Shift::TenderTotal cashRefunds; ///< cash sales that failed after the customer paid
    QList<Shift::UpiReturn>
        upiToReturn; ///< every failed UPI sale (UPI is collected before the sale is sent), oldest first
    Paise cashIn = 0;
    Paise cashOut = 0;
    QList<Shift::CashMove> cashMoves; ///< oldest first

    /// The cash the drawer should hold (paise): opening + cash taken - cash refunds + cash in - cash out.
    Paise expectedCash(Paise openingCash) const;
};

/// Which shifts to list (GET /api/v1/shifts): all bounds optional ("" / 0 / nullopt: any).
struct ShiftFilter
{
    qint64 openedFromMs = 0; ///< inclusive, UTC ms
    qint64 openedToMs = 0;   ///< exclusive, UTC ms
    QString clerk;           ///< the person's name, ignoring case
    QString terminal;        ///< the terminal's name, ignoring case
    std::optional<bool> open;
    qint64 userId = 0;   ///< only this person's shifts (a clerk's listing)
    qint64 beforeId = 0; ///< keyset cursor: shifts with a smaller id (newest first)
    int limit = 50;
};

/// The shifts and shift_cash_moves tables and the shift's view of its sales (migration 17). Writes run inside the
/// caller's transaction. Every call throws DatabaseError (isUniqueViolation() when a second shift is opened for a
/// person or terminal that has one open: the partial unique indexes).
class ShiftRepository
{
public:
    explicit ShiftRepository(Database &db) : m_db(db) {}

    /// Inserts an open shift; returns its id.
    qint64 insert(const StoredShift &shift);
    /// The account's shift of this mode and id. With `forUpdate`, PostgreSQL locks its row until the transaction
    /// ends (a close and a sale being attached to it take turns); SQLite's write transaction already does.
    std::optional<StoredShift> find(qint64 accountId, Mode mode, qint64 id, bool forUpdate = false);
    /// The person's open shift in this mode, locked like find().
    std::optional<StoredShift> openOfUser(qint64 accountId, Mode mode, qint64 userId, bool forUpdate = false);
    /// The open shift on `terminal` (ignoring case) in this mode.
    std::optional<StoredShift> openOnTerminal(qint64 accountId, Mode mode, const QString &terminal);
    /// The account's shifts of this mode matching `filter`, newest first.
    QList<StoredShift> list(qint64 accountId, Mode mode, const ShiftFilter &filter);
    /// Records cash put in or taken out (`direction` "in" / "out", amount > 0) by `actor` (a person's name).
    void addCashMove(qint64 shiftId, const QString &direction, Paise amount, const QString &reason, qint64 atMs,
                     const QString &actor);
    /// The shift's sales by tender and its cash moves, as they stand.
    ShiftTakings takings(qint64 shiftId);
    /// Closes the open shift `shift.id` with its count and the expected cash then; false when it was not open.
    bool close(const StoredShift &shift);

private:
    std::optional<StoredShift> one(const QString &where, const QVariantList &values, bool forUpdate);

    Database &m_db;
};

#pragma once

#include "auth/authcontext.h"
#include "entities/shift.h"
#include "store/shiftrepository.h"

#include <QList>
#include <QMap>
#include <QString>

class AuditLog;
class Clock;
class Database;
class ShopSettings;
class UserService;

/// A cash move as asked (POST /api/v1/shifts/{id}/cash-moves), before the service's checks.
struct CashMoveRequest
{
    QString direction; ///< "in" / "out"
    Paise amount = 0;
    QString reason;
    QString pin; ///< the caller's PIN
};

/// A close as asked (POST /api/v1/shifts/{id}/close), before the service's checks.
struct ShiftCloseRequest
{
    QMap<int, qint64> counts; ///< notes by denomination (rupees, Shift::kDenominations); a missing one counts 0
    Paise coins = 0;
    QString note; ///< "" when none
};

/// Shifts and cash-up (issue 28, "Shifts"): a signed-in person opens a shift on a terminal with the drawer's
/// opening cash, moves cash in and out confirmed by their PIN, and closes it with the count by denomination against
/// the expected cash (ShiftTakings::expectedCash), frozen at the close. One open shift per person and one per
/// terminal (per account and mode). A clerk sees and works their own shifts; an admin every shift of the account's
/// mode, and closes another person's with a note. With the shop's blind count, a clerk does not see the expected
/// cash (nor the difference) of an open shift. Every change is in the audit log. Money in paise; callers have a
/// session (Access::Person). Every call throws ApiError as documented and DatabaseError on storage failure.
class ShiftService
{
public:
    static constexpr int kMaxTerminal = 40;                     ///< characters
    static constexpr int kMaxReason = 120;                      ///< characters
    static constexpr int kMaxNote = 300;                        ///< characters
    static constexpr qint64 kMaxCount = 100'000;                ///< notes of one denomination
    static constexpr Paise kMaxOpeningCash = 10'00'000 * 100LL; ///< ₹10,00,000
    static constexpr Paise kMaxCashMove = 1'00'000 * 100LL;     ///< ₹1,00,000
    static constexpr Paise kMaxCoins = 1'00'000 * 100LL;        ///< ₹1,00,000

    ShiftService(Database &db, const Clock &clock, ShopSettings &settings, UserService &users, AuditLog &audit)
        : m_db(db), m_clock(clock), m_settings(settings), m_users(users), m_audit(audit)
    {}

    /// Opens the caller's shift on `terminal` (trimmed, 1-40 characters on one line: 400 `invalid_terminal`) with
    /// `openingCash` (0 to ₹10,00,000: 400 `invalid_opening_cash`). 409 `shift_already_open` when the caller or the
    /// terminal has an open shift (the description names it).
    Shift open(const AuthContext &caller, const QString &terminal, Paise openingCash);
    /// The caller's open shift; 404 `no_open_shift` when there is none.
    Shift current(const AuthContext &caller);
    /// The shift `id` of the caller's mode; 404 `shift_not_found` when there is none or it is another person's and
    /// the caller is a clerk.
    Shift get(const AuthContext &caller, qint64 id);
    /// The shifts matching `filter`, newest first (a clerk's own only).
    QList<Shift> list(const AuthContext &caller, ShiftFilter filter);
    /// Records cash put in or taken out of the drawer of the open shift `id` and answers the shift. 400
    /// `invalid_direction`, `invalid_amount` (> 0, at most ₹1,00,000), `invalid_reason` (1-120 characters); 404
    /// `shift_not_found`; 403 `not_your_shift` (a clerk, another's shift); 409 `shift_closed`; then the caller's PIN
    /// (401 `wrong_pin`, 429 `user_locked`, UserService::confirmPin). Nothing is written unless every check passes.
    Shift moveCash(const AuthContext &caller, qint64 id, const CashMoveRequest &move);
    /// Closes the open shift `id` with its count and answers it, expected cash frozen. 400 `invalid_count`
    /// (each 0-100000), `invalid_coins` (0 to ₹1,00,000), `invalid_note` (at most 300 characters), `note_required`
    /// (an admin closing another person's shift); 404 `shift_not_found`; 403 `not_your_shift` (a clerk, another's
    /// shift); 409 `shift_closed`.
    Shift close(const AuthContext &caller, qint64 id, const ShiftCloseRequest &request);

private:
    /// The API's shift: takings as they stand, expected (frozen once closed) and what the caller may see of it.
    Shift present(const StoredShift &stored, const AuthContext &caller, bool blind);
    /// The shift `id` of the caller's account and mode (404 `shift_not_found` otherwise).
    StoredShift existing(const AuthContext &caller, qint64 id);
    /// The shift `id` as get() may show it to the caller (404 otherwise).
    StoredShift visible(const AuthContext &caller, qint64 id);
    /// The open shift `id` the caller may work: 404 when there is none, 403 `not_your_shift`, 409 `shift_closed`.
    StoredShift workable(const AuthContext &caller, qint64 id);
    /// 403 `not_your_shift` unless the caller may work the shift (their own, or an admin).
    static void requireWorkable(const AuthContext &caller, const StoredShift &shift);

    Database &m_db;
    const Clock &m_clock;
    ShopSettings &m_settings;
    UserService &m_users;
    AuditLog &m_audit;
};

#include "shiftservice.h"

#include "apierror.h"
#include "clock.h"
#include "store/database.h"
#include "users/auditlog.h"
#include "users/shopsettings.h"
#include "users/userservice.h"
#include "validators.h"

namespace {

QDateTime instant(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

/// Trimmed one-line text of 1-`max` characters, else 400 `reason` naming `field`.
QString requireLine(const QString &text, int max, const QString &field, const QString &reason)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.size() > max || !Validators::isPlainText(trimmed))
        throw ApiError::badRequest(field, reason,
                                   QStringLiteral("%1 must be 1 to %2 characters on one line").arg(field).arg(max));
    return trimmed;
}

ApiError shiftClosed(const StoredShift &shift)
{
    return ApiError::conflict(
        QStringLiteral("shift_closed"),
        QStringLiteral("shift %1 (%2 on %3) is already closed").arg(shift.id).arg(shift.clerk, shift.terminal));
}

} // namespace

Shift ShiftService::present(const StoredShift &stored, const AuthContext &caller, bool blind)
{
    const ShiftTakings takings = ShiftRepository(m_db).takings(stored.id);
    Shift shift;
    shift.id = stored.id;
    shift.terminal = stored.terminal;
    shift.clerk = stored.clerk;
    shift.mode = ModeNames::mode(stored.mode);
    shift.state = stored.open ? QStringLiteral("open") : QStringLiteral("closed");
    shift.openedAt = instant(stored.openedAtMs);
    if (!stored.open)
        shift.closedAt = instant(stored.closedAtMs);
    shift.openingCash = stored.openingCash;
    shift.sales = takings.sales;
    shift.cashIn = takings.cashIn;
    shift.cashOut = takings.cashOut;
    shift.cashRefunds = takings.cashRefunds;
    shift.upiToReturn = takings.upiToReturn;
    shift.cashMoves = takings.cashMoves;
    shift.blind = blind;
    const bool hidden = stored.open && blind && !caller.userAdmin;
    if (!hidden)
        shift.expectedCash = stored.open ? takings.expectedCash(stored.openingCash) : stored.expectedCash;
    if (!stored.open) {
        shift.countedCash = stored.countedCash;
        shift.counts = stored.counts;
        shift.coins = stored.coins;
        if (shift.countedCash && shift.expectedCash)
            shift.difference = *shift.countedCash - *shift.expectedCash;
        shift.closedBy = stored.closedBy;
        shift.closeNote = stored.closeNote;
    }
    return shift;
}

StoredShift ShiftService::existing(const AuthContext &caller, qint64 id)
{
    const std::optional<StoredShift> shift = ShiftRepository(m_db).find(caller.accountId, caller.mode, id);
    if (!shift)
        throw ApiError::notFound(QStringLiteral("shift_not_found"),
                                 QStringLiteral("no shift %1 for this account").arg(id));
    return *shift;
}

StoredShift ShiftService::visible(const AuthContext &caller, qint64 id)
{
    const StoredShift shift = existing(caller, id);
    if (!caller.userAdmin && shift.userId != caller.userId)
        throw ApiError::notFound(QStringLiteral("shift_not_found"),
                                 QStringLiteral("no shift %1 for this account").arg(id));
    return shift;
}

StoredShift ShiftService::workable(const AuthContext &caller, qint64 id)
{
    const StoredShift shift = existing(caller, id);
    requireWorkable(caller, shift);
    if (!shift.open)
        throw shiftClosed(shift);
    return shift;
}

void ShiftService::requireWorkable(const AuthContext &caller, const StoredShift &shift)
{
    if (!caller.userAdmin && shift.userId != caller.userId)
        throw ApiError::forbidden(
            QStringLiteral("not_your_shift"),
            QStringLiteral("shift %1 is %2's: only they or an admin may work it").arg(shift.id).arg(shift.clerk));
}

Shift ShiftService::open(const AuthContext &caller, const QString &terminal, Paise openingCash)
{
    StoredShift shift;
    shift.terminal =
        requireLine(terminal, kMaxTerminal, QStringLiteral("terminal"), QStringLiteral("invalid_terminal"));
    if (openingCash < 0 || openingCash > kMaxOpeningCash)
        throw ApiError::badRequest(
            QStringLiteral("opening_cash"), QStringLiteral("invalid_opening_cash"),
            QStringLiteral("opening_cash must be from ₹0.00 to %1").arg(Money::format(kMaxOpeningCash)));
    shift.accountId = caller.accountId;
    shift.mode = caller.mode;
    shift.userId = caller.userId;
    shift.clerk = caller.userName;
    shift.openingCash = openingCash;
    shift.openedAtMs = m_clock.nowMs();
    ShiftRepository shifts(m_db);
    // The person's or the terminal's open shift, as the 409 that names it; nothing when both are free.
    const auto alreadyOpen = [&]() -> std::optional<ApiError> {
        if (const std::optional<StoredShift> own = shifts.openOfUser(caller.accountId, caller.mode, caller.userId))
            return ApiError::conflict(QStringLiteral("shift_already_open"),
                                      QStringLiteral("%1 already has shift %2 open on %3: close it first")
                                          .arg(caller.userName)
                                          .arg(own->id)
                                          .arg(own->terminal));
        if (const std::optional<StoredShift> other =
                shifts.openOnTerminal(caller.accountId, caller.mode, shift.terminal))
            return ApiError::conflict(QStringLiteral("shift_already_open"),
                                      QStringLiteral("%1 already has shift %2 open (%3's): it must be closed first")
                                          .arg(other->terminal)
                                          .arg(other->id)
                                          .arg(other->clerk));
        return std::nullopt;
    };
    try {
        WriteTransaction transaction(m_db);
        if (const std::optional<ApiError> refusal = alreadyOpen())
            throw *refusal;
        shift.id = shifts.insert(shift);
        m_audit.record(
            caller.accountId, caller.actor(), QStringLiteral("shift.open"),
            QStringLiteral("shift %1 on %2 with %3").arg(shift.id).arg(shift.terminal, Money::format(openingCash)));
        transaction.commit();
    } catch (const DatabaseError &error) {
        // Another server opened one between the checks and the insert (the partial unique indexes refused it).
        if (!error.isUniqueViolation())
            throw;
        if (const std::optional<ApiError> refusal = alreadyOpen())
            throw *refusal;
        throw;
    }
    return present(shift, caller, m_settings.blindCount(caller.accountId));
}

Shift ShiftService::current(const AuthContext &caller)
{
    const std::optional<StoredShift> shift =
        ShiftRepository(m_db).openOfUser(caller.accountId, caller.mode, caller.userId);
    if (!shift)
        throw ApiError::notFound(QStringLiteral("no_open_shift"),
                                 QStringLiteral("%1 has no open shift").arg(caller.userName));
    return present(*shift, caller, m_settings.blindCount(caller.accountId));
}

Shift ShiftService::get(const AuthContext &caller, qint64 id)
{
    return present(visible(caller, id), caller, m_settings.blindCount(caller.accountId));
}

QList<Shift> ShiftService::list(const AuthContext &caller, ShiftFilter filter)
{
    if (!caller.userAdmin)
        filter.userId = caller.userId;
    const bool blind = m_settings.blindCount(caller.accountId);
    QList<Shift> shifts;
    for (const StoredShift &stored : ShiftRepository(m_db).list(caller.accountId, caller.mode, filter))
        shifts.append(present(stored, caller, blind));
    return shifts;
}

Shift ShiftService::moveCash(const AuthContext &caller, qint64 id, const CashMoveRequest &move)
{
    if (move.direction != QLatin1String("in") && move.direction != QLatin1String("out"))
        throw ApiError::badRequest(
            QStringLiteral("direction"), QStringLiteral("invalid_direction"),
            QStringLiteral("direction must be in (cash put into the drawer) or out (taken out)"));
    if (move.amount <= 0 || move.amount > kMaxCashMove)
        throw ApiError::badRequest(
            QStringLiteral("amount"), QStringLiteral("invalid_amount"),
            QStringLiteral("amount must be more than ₹0.00 and at most %1").arg(Money::format(kMaxCashMove)));
    const QString reason =
        requireLine(move.reason, kMaxReason, QStringLiteral("reason"), QStringLiteral("invalid_reason"));
    const StoredShift shift = workable(caller, id);
    m_users.confirmPin(caller.accountId, caller.userId, move.pin, caller.actor());

    WriteTransaction transaction(m_db);
    ShiftRepository shifts(m_db);
    const std::optional<StoredShift> locked = shifts.find(caller.accountId, caller.mode, id, true);
    if (!locked || !locked->open)
        throw shiftClosed(shift); // closed meanwhile
    shifts.addCashMove(id, move.direction, move.amount, reason, m_clock.nowMs(), caller.userName);
    m_audit.record(
        caller.accountId, caller.actor(), QStringLiteral("shift.cash_") + move.direction,
        QStringLiteral("shift %1: %2 %3 (%4)")
            .arg(id)
            .arg(move.direction == QLatin1String("in") ? QStringLiteral("put in") : QStringLiteral("took out"),
                 Money::format(move.amount), reason));
    transaction.commit();
    return present(*locked, caller, m_settings.blindCount(caller.accountId));
}

Shift ShiftService::close(const AuthContext &caller, qint64 id, const ShiftCloseRequest &request)
{
    QMap<int, qint64> counts;
    for (const int denomination : Shift::kDenominations) {
        const qint64 count = request.counts.value(denomination, 0);
        if (count < 0 || count > kMaxCount)
            throw ApiError::badRequest(QStringLiteral("counts.%1").arg(denomination), QStringLiteral("invalid_count"),
                                       QStringLiteral("the count of ₹%1 notes must be a whole number from 0 to %2")
                                           .arg(denomination)
                                           .arg(kMaxCount));
        counts.insert(denomination, count);
    }
    if (request.coins < 0 || request.coins > kMaxCoins)
        throw ApiError::badRequest(QStringLiteral("coins"), QStringLiteral("invalid_coins"),
                                   QStringLiteral("coins must be from ₹0.00 to %1").arg(Money::format(kMaxCoins)));
    const QString note = request.note.trimmed();
    if (note.size() > kMaxNote || !Validators::isPlainText(note, true))
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("invalid_note"),
                                   QStringLiteral("note must be at most %1 characters").arg(kMaxNote));
    StoredShift shift = workable(caller, id);
    if (shift.userId != caller.userId && note.isEmpty())
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("note_required"),
                                   QStringLiteral("closing %1's shift needs a note saying why").arg(shift.clerk));

    WriteTransaction transaction(m_db);
    ShiftRepository shifts(m_db);
    const std::optional<StoredShift> locked = shifts.find(caller.accountId, caller.mode, id, true);
    if (!locked || !locked->open)
        throw shiftClosed(shift); // closed meanwhile
    shift = *locked;
    shift.open = false;
    shift.closedAtMs = m_clock.nowMs();
    shift.counts = counts;
    shift.coins = request.coins;
    shift.countedCash = Shift::countedTotal(counts, request.coins);
    shift.expectedCash = shifts.takings(id).expectedCash(shift.openingCash);
    shift.closedBy = caller.userName;
    shift.closeNote = note;
    if (!shifts.close(shift))
        throw shiftClosed(shift);
    m_audit.record(caller.accountId, caller.actor(), QStringLiteral("shift.close"),
                   QStringLiteral("shift %1 of %2 on %3: counted %4, expected %5, difference %6%7")
                       .arg(id)
                       .arg(shift.clerk, shift.terminal, Money::format(*shift.countedCash),
                            Money::format(*shift.expectedCash), Money::format(*shift.countedCash - *shift.expectedCash),
                            note.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(note)));
    transaction.commit();
    return present(shift, caller, m_settings.blindCount(caller.accountId));
}

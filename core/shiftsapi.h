#pragma once

#include "answer.h"
#include "entities/shift.h"

#include <QMap>

/// Typed calls of the shifts (issue 28, /api/v1/shifts; every call needs a signed-in person's session); owns their
/// routes. Money in paise, sent as the API's money strings ("₹2000.00").
class ShiftsApi
{
public:
    explicit ShiftsApi(ApiClient &api) : m_api(api) {}

    /// POST /api/v1/shifts: opens the caller's shift on `terminal` (1-40 characters) with `openingCash` in the
    /// drawer (201). 409 `shift_already_open` when the person or the terminal has one open.
    TypedCall<Shift> open(const QString &terminal, Paise openingCash) const;
    /// GET /api/v1/shifts/current: the caller's open shift; 404 `no_open_shift` when there is none.
    TypedCall<Shift> current() const;
    /// GET /api/v1/shifts/{id} (a clerk: their own only, else 404).
    TypedCall<Shift> get(qint64 id) const;
    /// POST /api/v1/shifts/{id}/cash-moves: puts cash into (`direction` "in") or takes it out of ("out") the drawer,
    /// `amount` > 0 (at most ₹1,00,000), with `reason` (1-120 characters), confirmed by the caller's `pin`
    /// (401 `wrong_pin`); answers the shift (201). 409 `shift_closed`.
    TypedCall<Shift> cashMove(qint64 id, const QString &direction, Paise amount, const QString &reason,
                              const QString &pin) const;
    /// POST /api/v1/shifts/{id}/close: closes the shift with the notes counted by denomination (rupees → count,
    /// Shift::kDenominations; a missing one counts 0), the coins' total and a note ("" = none; required when an
    /// admin closes another person's shift); answers the closed shift. 403 `not_your_shift`, 409 `shift_closed`.
    TypedCall<Shift> close(qint64 id, const QMap<int, qint64> &counts, Paise coins, const QString &note) const;
    /// The path of GET /api/v1/shifts (query items date=YYYY-MM-DD IST, clerk, terminal, state=open|closed), for a
    /// collection model: an admin sees every shift, a clerk their own.
    static QString listPath();

private:
    ApiClient &m_api;
};

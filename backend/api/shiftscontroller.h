#pragma once

#include "services/shiftservice.h"
#include "users/auditlog.h"
#include "users/shopsettings.h"
#include "users/userservice.h"

class ApiRouter;
class Clock;
class Database;
class SaleTerms;

/// Shifts and cash-up (issue 28), beyond the spec; every route needs a signed-in person's session (Access::Person):
/// POST /api/v1/shifts {terminal, opening_cash "₹2000.00"} -> 201 shift; GET /api/v1/shifts/current;
/// GET /api/v1/shifts?date=YYYY-MM-DD (IST day opened)&clerk=&terminal=&state=open|closed&limit=&cursor= ->
/// a paged collection of shifts, newest first; GET /api/v1/shifts/{id};
/// POST /api/v1/shifts/{id}/cash-moves {direction "in"|"out", amount "₹100.00", reason, pin} -> 201 shift;
/// POST /api/v1/shifts/{id}/close {counts {"500": n, …}, coins "₹35.00", note} -> shift. Money fields are the
/// API's money strings (400 `invalid_amount` naming the field otherwise); the rules are ShiftService's.
class ShiftsController
{
public:
    ShiftsController(Database &db, const Clock &clock, SaleTerms &terms);
    void registerRoutes(ApiRouter &router);

private:
    AuditLog m_audit;
    ShopSettings m_settings;
    UserService m_users;
    ShiftService m_shifts;
};

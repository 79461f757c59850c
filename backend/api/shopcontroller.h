#pragma once

#include "users/auditlog.h"
#include "users/shopsettings.h"

class ApiRouter;
class Clock;
class Database;
class SaleTerms;

/// The shop's settings and the admin audit log (issue 5 item 2, issue 6 items 6-7), beyond the
/// spec: GET /api/v1/shop (pos) -> {"entity": "shop", "name", "address", "low_balance_threshold"
/// (money string), "idle_lock_seconds", "discount_rates": [{"operator_code", "basis_points",
/// "default_basis_points"}] (1 bp = 0.01 %), "sandbox_settle_delay_ms", "circle_code" (the
/// shop's telecom circle, "" when not set)}; PUT /api/v1/shop (admin) with any of name, address,
/// low_balance_threshold_rupees, idle_lock_seconds, discount_basis_points ({"AT": 250, ...}: only
/// the operators named change), sandbox_settle_delay_ms, circle_code -> the updated shop (audited);
/// GET /api/v1/audit-log (admin; limit 1-200, default 50; cursor) -> a collection of
/// audit_entry newest first, with next_cursor.
class ShopController
{
public:
    ShopController(Database &db, const Clock &clock, SaleTerms &terms);
    void registerRoutes(ApiRouter &router);

private:
    AuditLog m_audit;
    ShopSettings m_settings;
};

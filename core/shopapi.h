#pragma once

#include "answer.h"
#include "entities/shopinfo.h"

/// Typed calls of the shop settings (GET/PUT /api/v1/shop, issue 5 item 2); owns their route.
class ShopApi
{
public:
    explicit ShopApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/shop.
    TypedCall<ShopInfo> get() const;
    /// PUT /api/v1/shop (admin) with the fields to change (name, address,
    /// low_balance_threshold_rupees, idle_lock_seconds, discount_basis_points,
    /// sandbox_settle_delay_ms, circle_code; issue 28: shifts_enabled and blind_count (admin), upi_vpa and
    /// upi_payee_name (live authority)); answers the settings after the change.
    TypedCall<ShopInfo> update(const QJsonObject &changes) const;

private:
    ApiClient &m_api;
};

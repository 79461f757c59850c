#pragma once

#include "answer.h"
#include "entities/numberinfo.h"

/// Typed call of the number lookup (issue 29, GET /api/v1/numbers/{phone_number}); owns its route. Any key of the
/// account; the answer covers the caller's account and mode.
class NumbersApi
{
public:
    explicit NumbersApi(ApiClient &api) : m_api(api) {}

    /// The operator and circle last sold successfully to `phoneNumber` (10 digits), with when and how often, and the
    /// RechargeDesk upstream's answer when it gave one in time. 404 `number_unknown` when neither knows the number;
    /// 400 `invalid_phone_number`.
    TypedCall<NumberInfo> lookup(const QString &phoneNumber) const;

private:
    ApiClient &m_api;
};

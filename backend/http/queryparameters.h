#pragma once

#include "apierror.h"

#include <QString>
#include <QUrlQuery>

/// Reading the query parameters that list routes share (api-conventions.md, "Beyond the spec": collections with
/// `limit` and an opaque `cursor`). Every bad value is ApiError 400 `invalid_query_parameter` naming the parameter,
/// so a client is told the same thing by every route.
namespace QueryParameters {

/// The 400 `invalid_query_parameter` error for `field`, with `description` in plain words.
ApiError invalid(const QString &field, const QString &description);

/// `limit`: `defaultLimit` when absent; otherwise a whole number from 1 to `maxLimit`, else 400
/// "limit must be a whole number from 1 to N".
int limit(const QUrlQuery &query, int defaultLimit, int maxLimit);

/// A plain-number `cursor` (the id of the last row of the previous page): 0 when absent; a negative or
/// non-number value is 400 "cursor is not one this server returned".
qint64 numberCursor(const QUrlQuery &query);

/// The 400 error for a cursor this server did not hand out (for routes whose cursor has its own encoding).
ApiError badCursor();

} // namespace QueryParameters

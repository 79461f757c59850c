#include "queryparameters.h"

#include "jsonfields.h"

namespace QueryParameters {

ApiError invalid(const QString &field, const QString &description)
{
    return ApiError::badRequest(field, QStringLiteral("invalid_query_parameter"), description);
}

int limit(const QUrlQuery &query, int defaultLimit, int maxLimit)
{
    if (!query.hasQueryItem(QStringLiteral("limit")))
        return defaultLimit;
    const std::optional<qint64> limit =
        JsonFields::coerceInteger(query.queryItemValue(QStringLiteral("limit"), QUrl::FullyDecoded).trimmed());
    if (!limit || *limit < 1 || *limit > maxLimit)
        throw invalid(QStringLiteral("limit"),
                      QStringLiteral("limit must be a whole number from 1 to %1").arg(maxLimit));
    return int(*limit);
}

qint64 numberCursor(const QUrlQuery &query)
{
    const QString text = query.queryItemValue(QStringLiteral("cursor"), QUrl::FullyDecoded);
    if (text.isEmpty())
        return 0;
    const std::optional<qint64> cursor = JsonFields::coerceInteger(text);
    if (!cursor || *cursor < 0)
        throw badCursor();
    return *cursor;
}

ApiError badCursor()
{
    return invalid(QStringLiteral("cursor"), QStringLiteral("cursor is not one this server returned"));
}

} // namespace QueryParameters

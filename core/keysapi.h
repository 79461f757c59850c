#pragma once

#include "answer.h"
#include "entities/apikey.h"
#include "entities/collection.h"

class ApiClient;

/// Typed calls of the account's API keys (api-conventions.md "Keys"); owns the routes.
class KeysApi
{
public:
    explicit KeysApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/keys (admin): the collection path, for table models.
    static QString listPath();

    /// GET /api/v1/keys: every key of the account, revoked ones included.
    TypedCall<Collection<ApiKey>> list();
    /// POST /api/v1/keys: a new key; the answer carries its secret once. `mode` "test"/"live", `scope` "pos"/"admin".
    TypedCall<ApiKey> create(const QString &name, const QString &mode, const QString &scope);
    /// POST /api/v1/keys/{key_id}/revoke.
    TypedCall<ApiKey> revoke(const QString &keyId);

private:
    ApiClient &m_api;
};

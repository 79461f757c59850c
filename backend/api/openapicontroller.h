#pragma once

#include "http/staticasset.h"

class ApiRouter;

/// GET /api/v1/openapi.json (public): the API reference, docs/api/openapi.yaml as JSON (built into the binary by
/// the build as :/api/openapi.json), with a strong ETag and `Cache-Control: public, max-age=3600`; a matching
/// If-None-Match gets 304 (api-conventions.md, "Beyond the spec").
class OpenApiController
{
public:
    static constexpr const char *kPath = "/api/v1/openapi.json";

    /// Reads the document from the resources once.
    OpenApiController();
    void registerRoutes(ApiRouter &router);

private:
    StaticAsset m_document;
};

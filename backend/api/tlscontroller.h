#pragma once

#include <QString>

class ApiRouter;

/// GET /api/v1/server/tls (any authenticated key; extension of api-v1.md for issue 12): whether the server speaks
/// TLS and the SHA-256 fingerprint of its certificate, {"data":{"tls":true,"fingerprint_sha256":"AB:CD:..."}}
/// (null and false without --tls), so the back office can show what a terminal must confirm on first contact.
class TlsController
{
public:
    /// `fingerprintSha256` in TlsPin::fingerprint() form; empty when the server speaks plain HTTP.
    explicit TlsController(QString fingerprintSha256) : m_fingerprint(std::move(fingerprintSha256)) {}
    void registerRoutes(ApiRouter &router);

private:
    QString m_fingerprint;
};

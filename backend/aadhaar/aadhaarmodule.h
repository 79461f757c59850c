#pragma once

#include "aadhaarvault.h"

#include <QString>
#include <QUrl>

#include <memory>
#include <optional>

class AadhaarController;
class AadhaarService;
class ApiRouter;
class Clock;
class Database;
class SandboxController;
class SandboxSmsGateway;
class UpstreamAadhaarGateway;

/// The Aadhaar OTP flow wired together for one ApiServer: the vault (key file <dataDir>/keys/aadhaar.key, created
/// 0600 on first start), the sandbox SMS gateway, the service with its expiry sweep, and the aadhaar and sandbox
/// controllers; live keys' flows go through the upstream (UpstreamAadhaarGateway). If the vault cannot be opened, or
/// its key is not the one the other servers of the database use (issue 16: the database keeps a fingerprint of
/// the first server's key), the reason is logged and the flow's endpoints answer 503.
class AadhaarModule
{
public:
    /// Opens the vault under @p dataDir (ServerOptions::dataDir) and starts the sweep timer; captcha links start
    /// with @p publicUrl (ServerOptions::publicUrl) or are relative paths when it is empty. Live keys go through
    /// the configured upstream (UpstreamAadhaarGateway), each call bounded by @p upstreamTimeoutMs.
    AadhaarModule(Database &db, const Clock &clock, const QString &dataDir, const QUrl &publicUrl,
                  int upstreamTimeoutMs);
    ~AadhaarModule();
    AadhaarModule(const AadhaarModule &) = delete;
    AadhaarModule &operator=(const AadhaarModule &) = delete;

    /// Adds the routes of endpoints 1-3, the captcha image and the sandbox reads.
    void registerRoutes(ApiRouter &router);

    AadhaarService &service() { return *m_service; }

    /// Where the vault key of a server with @p dataDir lives: <dataDir>/keys/aadhaar.key.
    static QString keyFilePath(const QString &dataDir);
    /// True when @p vault's key is the one the database's servers use (its fingerprint is stored by the first
    /// server to ask); also true when the database cannot answer (logged). Never throws.
    static bool sharesVaultKey(Database &db, const AadhaarVault &vault);

private:
    std::optional<AadhaarVault> m_vault;
    std::unique_ptr<SandboxSmsGateway> m_sms;
    std::unique_ptr<AadhaarService> m_service;
    std::unique_ptr<UpstreamAadhaarGateway> m_live;
    std::unique_ptr<AadhaarController> m_controller;
    std::unique_ptr<SandboxController> m_sandbox;
};

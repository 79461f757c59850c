#include "aadhaarmodule.h"

#include "aadhaarrepository.h"
#include "aadhaarservice.h"
#include "api/aadhaarcontroller.h"
#include "api/sandboxcontroller.h"
#include "sandboxsmsgateway.h"
#include "store/database.h"
#include "upstreamaadhaargateway.h"

#include <QDir>
#include <QLoggingCategory>

namespace {
Q_LOGGING_CATEGORY(lcAadhaarModule, "rechargedesk.aadhaar")
}

AadhaarModule::AadhaarModule(Database &db, const Clock &clock, const QString &dataDir, const QUrl &publicUrl,
                             int upstreamTimeoutMs)
{
    QString error;
    m_vault = dataDir.isEmpty() ? std::nullopt : AadhaarVault::openOrCreate(keyFilePath(dataDir), &error);
    if (m_vault && !sharesVaultKey(db, *m_vault)) {
        m_vault.reset();
        error = QStringLiteral("%1 is not the vault key the other servers of this database use; copy theirs here "
                               "(every server of one database needs the same key file) and restart")
                    .arg(keyFilePath(dataDir));
    }
    if (!m_vault)
        qCCritical(lcAadhaarModule, "Aadhaar verification disabled: %s",
                   qPrintable(dataDir.isEmpty() ? QStringLiteral("no data directory configured") : error));
    m_sms = std::make_unique<SandboxSmsGateway>(db);
    m_service = std::make_unique<AadhaarService>(db, m_vault ? &*m_vault : nullptr, *m_sms, clock);
    m_live = std::make_unique<UpstreamAadhaarGateway>(db, m_vault ? &*m_vault : nullptr, clock, upstreamTimeoutMs);
    m_controller = std::make_unique<AadhaarController>(*m_service, *m_live, publicUrl);
    m_sandbox = std::make_unique<SandboxController>(*m_service, *m_sms);
    m_service->start();
}

AadhaarModule::~AadhaarModule() = default;

void AadhaarModule::registerRoutes(ApiRouter &router)
{
    m_controller->registerRoutes(router);
    m_sandbox->registerRoutes(router);
}

bool AadhaarModule::sharesVaultKey(Database &db, const AadhaarVault &vault)
{
    const QString fingerprint = QString::fromLatin1(vault.keyedHash("vault-fingerprint", "rechargedesk").toHex());
    try {
        return AadhaarRepository(db).claimVaultFingerprint(fingerprint) == fingerprint;
    } catch (const DatabaseError &error) {
        qCWarning(lcAadhaarModule, "the vault key could not be compared with the database's: %s", error.what());
        return true; // as before the check: a database that cannot answer now fails the flow's own steps
    }
}

QString AadhaarModule::keyFilePath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("keys/aadhaar.key"));
}

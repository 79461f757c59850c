#include "aadhaarmodule.h"

#include "aadhaarservice.h"
#include "api/aadhaarcontroller.h"
#include "api/sandboxcontroller.h"
#include "sandboxsmsgateway.h"
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

QString AadhaarModule::keyFilePath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("keys/aadhaar.key"));
}

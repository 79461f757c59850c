#include "webhookmodule.h"

#include "services/settlementservice.h"
#include "services/transactionservice.h"
#include "store/database.h"

#include <QTimer>

WebhookModule::WebhookModule(Database &db, CommitBatcher &batcher, const Clock &clock, TransactionService &transactions,
                             SettlementService &settlements, WebhookDeliverySettings delivery,
                             const AadhaarVault *vault, std::function<QUrl()> serverUrl)
    : m_endpoints(db, clock, vault,
                  [serverUrl] {
                      QUrl url = serverUrl ? serverUrl() : QUrl();
                      if (url.isValid())
                          url.setPath(QStringLiteral("/hooks/inbox"));
                      return url;
                  }),
      m_delivery(db, clock, vault, delivery, serverUrl), m_outbox(db, clock, [this] { m_delivery.wake(); }),
      m_inbox(db, batcher, clock, vault), m_api(m_endpoints, m_outbox, clock), m_inboxApi(m_inbox)
{
    // Secrets of an older version, or written by a tool without the vault, are sealed now (issue 12).
    WriteTransaction sealing(db);
    WebhookEndpointRepository(db, vault).sealClearSecrets();
    sealing.commit();
    // Transactional outbox: the event row commits with the status change (api-v1.md, Events §1).
    settlements.setStatusListener([this, &transactions](const StoredTransaction &settled) {
        m_outbox.enqueueTransaction(settled.accountId, settled.mode, transactions.present(settled));
    });
    QObject::connect(&settlements, &SettlementService::settled, &m_delivery, [this] { m_delivery.wake(); });
    QTimer::singleShot(0, &m_delivery, [this] { m_delivery.startDelivery(); });
}

void WebhookModule::registerRoutes(ApiRouter &router)
{
    m_api.registerRoutes(router);
    m_inboxApi.registerRoutes(router);
}

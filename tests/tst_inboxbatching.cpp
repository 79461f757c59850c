// Issue 17: the built-in webhook inbox stores its messages in the server's grouped commit (CommitBatcher) instead
// of one durable commit each on the server thread, and still answers only after its message is stored.
#include "services/commitbatcher.h"
#include "testserver.h"
#include "webhooks/webhooksigner.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

class TestInboxBatching : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;

    qint64 inboxCount()
    {
        const HttpResult r =
            m_server->http().get(m_server->url(QStringLiteral("/api/v1/webhook-inbox")), m_server->admin());
        return r.status == 200 ? r.data().value(QStringLiteral("count")).toInteger(-1) : -1;
    }

private slots:
    void cleanup() { m_server.reset(); }

    void inboxMessagesGoThroughTheGroupedCommit()
    {
        m_server = std::make_unique<TestServer>(); // sandbox PENDING sales settle after 50 ms
        const quint64 writesBefore = m_server->server().batcher().writeCount();
        constexpr int kSales = 6;
        for (int i = 0; i < kSales; ++i) {
            const HttpResult sale = m_server->http().postJson(
                m_server->url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                QJsonObject{{QStringLiteral("phone_number"),
                             QString(QStringLiteral("98765") + QString::number(i) + QStringLiteral("1111"))},
                            {QStringLiteral("amount"), 10},
                            {QStringLiteral("operator_code"), QStringLiteral("AT")}},
                m_server->pos());
            QCOMPARE(sale.status, 200);
            QCOMPARE(sale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        }
        // Each sale settles and its webhook reaches the built-in inbox (this server).
        QTRY_COMPARE_WITH_TIMEOUT(inboxCount(), qint64(kSales), 15000);
        // The sales are writes of the grouped commit; the inbox's messages are not (w-webhook, issue 17): the
        // delivery thread stores them itself, with their attempt rows, in one commit per batch on its own
        // connection, so they cost the server thread nothing. (POST /hooks/inbox from elsewhere still goes through
        // the grouped commit: postedMessageGoesThroughTheGroupedCommit.)
        QTRY_COMPARE_WITH_TIMEOUT(m_server->server().batcher().writeCount() - writesBefore, quint64(kSales), 15000);
        const HttpResult deliveries =
            m_server->http().get(m_server->url(QStringLiteral("/api/v1/webhook-deliveries")), m_server->admin());
        QCOMPARE(deliveries.status, 200);
        for (const QJsonValue item : deliveries.data().value(QStringLiteral("items")).toArray())
            QCOMPARE(item.toObject().value(QStringLiteral("http_status")).toInt(), 200);
    }

    void postedMessageGoesThroughTheGroupedCommit()
    {
        m_server = std::make_unique<TestServer>();
        const QJsonObject endpoint =
            m_server->http().get(m_server->url(QStringLiteral("/api/v1/webhook-endpoint")), m_server->admin()).data();
        const QByteArray body =
            QJsonDocument(QJsonObject{{QStringLiteral("data"),
                                       QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook")},
                                                   {QStringLiteral("webhook_event"), QStringLiteral("event.test")},
                                                   {QStringLiteral("webhook_password"),
                                                    endpoint.value(QStringLiteral("webhook_password"))},
                                                   {QStringLiteral("payload"), QJsonObject()}}}})
                .toJson(QJsonDocument::Compact);
        const qint64 timestamp = QDateTime::currentSecsSinceEpoch();
        const QByteArray signature = WebhookSigner::signatureHeader(
            {endpoint.value(QStringLiteral("secret")).toString()}, "msg_posted", timestamp, body);
        const quint64 writesBefore = m_server->server().batcher().writeCount();
        const HttpResult r = m_server->http().send("POST", m_server->url(QStringLiteral("/hooks/inbox")), body,
                                                   {{"Content-Type", "application/json"},
                                                    {"webhook-id", "msg_posted"},
                                                    {"webhook-timestamp", QByteArray::number(timestamp)},
                                                    {"webhook-signature", signature}});
        QCOMPARE(r.status, 200);
        QCOMPARE(m_server->server().batcher().writeCount() - writesBefore, quint64(1));
        QCOMPARE(inboxCount(), qint64(1));
    }
};

QTEST_GUILESS_MAIN(TestInboxBatching)
#include "tst_inboxbatching.moc"

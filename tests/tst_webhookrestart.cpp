// Webhooks across a kill -9 (issue 4): the real binary is killed with events undelivered and
// settlements not yet due; after a restart every event arrives, none is lost, and a repeat
// only ever carries the same webhook-id. The receiver runs in this test process.
#include "httpclient.h"
#include "serverprocess.h"
#include "testreceiver.h"
#include "teststore.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");

QByteArray expectedSignature(const QString &secret, const ReceivedHook &hook)
{
    const QByteArray key = QByteArray::fromBase64(secret.mid(6).toLatin1());
    return "v1," + QMessageAuthenticationCode::hash(hook.webhookId + '.' + hook.timestamp + '.' + hook.body, key,
                                                    QCryptographicHash::Sha256)
                       .toBase64();
}

} // namespace

class TestWebhookRestart final : public QObject
{
    Q_OBJECT

    HttpClient m_http;

    QSet<qint64> sellPending(const ServerProcess &server, const QByteArray &auth, int count)
    {
        QSet<qint64> ids;
        QUrl url = server.url();
        url.setPath(kMobile);
        for (int i = 0; i < count; ++i) {
            const HttpResult r =
                m_http.postJson(url,
                                {{QStringLiteral("phone_number"),
                                  QString(QLatin1Char('9') + QString::number(i).rightJustified(5, QLatin1Char('0')) +
                                          QLatin1String("1111"))},
                                 {QStringLiteral("amount"), 249},
                                 {QStringLiteral("operator_code"), QStringLiteral("RJ")}},
                                auth);
            if (r.data().value(QStringLiteral("transaction_status")).toString() == QLatin1String("PENDING"))
                ids.insert(r.data().value(QStringLiteral("transaction_id")).toInteger());
            else
                qWarning("sale %d: HTTP %d %s %s", i, r.status, r.body.constData(), qPrintable(r.networkError));
        }
        return ids;
    }

private slots:
    void killNineLosesNoEvent()
    {
        TestStore dir;
        TestReceiver receiver;
        bool receiverUp = false; // answers 503 until the restart
        receiver.setResponder([&receiverUp](const ReceivedHook &, int) { return receiverUp ? 200 : 503; });
        const QStringList flags{QStringLiteral("--settle-delay-ms"), QStringLiteral("400"),
                                QStringLiteral("--webhook-retry-scale"), QStringLiteral("0.0002")};
        // The key comes from the CLI, before the server starts.
        QString output;
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("keys"), QStringLiteral("create"),
                                                   QStringLiteral("--name"), QStringLiteral("webhooks"),
                                                   QStringLiteral("--mode"), QStringLiteral("test"),
                                                   QStringLiteral("--scope"), QStringLiteral("pos")} +
                                           dir.arguments(),
                                       &output),
                 0);
        const QByteArray auth =
            HttpClient::basic(QRegularExpression(QStringLiteral("key_id: (\\S+)")).match(output).captured(1),
                              QRegularExpression(QStringLiteral("key_secret: (\\S+)")).match(output).captured(1));
        ServerProcess server;
        const auto killOnFailure = qScopeGuard([&server] { server.kill(); });
        QString error;
        QVERIFY2(server.start(dir, flags, &error), qPrintable(error));

        // The CLI changes the settings of the running server through the shared database.
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("webhook"), QStringLiteral("set"),
                                                   QStringLiteral("--mode"), QStringLiteral("test"),
                                                   QStringLiteral("--url"), receiver.url().toString(),
                                                   QStringLiteral("--password"), QStringLiteral("pw-restart")} +
                                           dir.arguments(),
                                       &output),
                 0);
        const QString secret = QRegularExpression(QStringLiteral("whsec_\\S+")).match(output).captured(0);
        QVERIFY2(!secret.isEmpty(), qPrintable(output));

        // Batch 1: settled, tried, refused by the receiver: undelivered rows in the outbox.
        const QSet<qint64> tried = sellPending(server, auth, 20);
        QCOMPARE(tried.size(), 20);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QSet<qint64> seen;
                for (const ReceivedHook &hook : receiver.requests())
                    seen.insert(hook.transactionId());
                return seen.contains(tried);
            }(),
            20'000);
        // Batch 2: still PENDING (settlement timers in the database) when the server dies.
        const QSet<qint64> unsettled = sellPending(server, auth, 10);
        QCOMPARE(unsettled.size(), 10);
        server.kill();
        QVERIFY(receiver.accepted().isEmpty());

        receiverUp = true;
        QVERIFY2(server.start(dir, flags, &error), qPrintable(error));
        const QSet<qint64> all = tried + unsettled;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QSet<qint64> delivered;
                for (const ReceivedHook &hook : receiver.accepted())
                    delivered.insert(hook.transactionId());
                return delivered == all;
            }(),
            30'000);

        // At-least-once, deduplicable: one webhook-id per transaction, whatever was repeated.
        QHash<qint64, QByteArray> idOf;
        QHash<QByteArray, qint64> transactionOf;
        for (const ReceivedHook &hook : receiver.requests()) {
            const qint64 transaction = hook.transactionId();
            QVERIFY(all.contains(transaction));
            QCOMPARE(idOf.value(transaction, hook.webhookId), hook.webhookId);
            QCOMPARE(transactionOf.value(hook.webhookId, transaction), transaction);
            idOf.insert(transaction, hook.webhookId);
            transactionOf.insert(hook.webhookId, transaction);
            QCOMPARE(hook.signature, expectedSignature(secret, hook));
            QCOMPARE(QJsonDocument::fromJson(hook.body)
                         .object()
                         .value(QStringLiteral("data"))
                         .toObject()
                         .value(QStringLiteral("webhook_password"))
                         .toString(),
                     QStringLiteral("pw-restart"));
        }
        QCOMPARE(idOf.size(), 30);
        QCOMPARE(server.terminate(), 0);
    }

    void cliShowsAndRotates()
    {
        TestStore dir;
        ServerProcess server;
        QString error;
        QVERIFY2(server.start(dir, {}, &error), qPrintable(error));
        QCOMPARE(server.terminate(), 0);
        const QStringList store = dir.arguments();
        QString output;
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("webhook"), QStringLiteral("show")} + store, &output),
                 0);
        QVERIFY2(output.contains(QLatin1String("built-in inbox")), qPrintable(output));
        QVERIFY(!output.contains(QLatin1String("whsec_")));
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("webhook"), QStringLiteral("set"),
                                                   QStringLiteral("--mode"), QStringLiteral("live"),
                                                   QStringLiteral("--url"), QStringLiteral("http://10.1.1.1/hook"),
                                                   QStringLiteral("--password"), QStringLiteral("x")} +
                                           store,
                                       &output),
                 2);
        QVERIFY2(output.contains(QLatin1String("private")), qPrintable(output));
        QCOMPARE(
            ServerProcess::runCli(QStringList{QStringLiteral("webhook"), QStringLiteral("set"),
                                              QStringLiteral("--mode"), QStringLiteral("live"), QStringLiteral("--url"),
                                              QStringLiteral("https://shop.example.com/hook"),
                                              QStringLiteral("--password"), QStringLiteral("x")} +
                                      store,
                                  &output),
            0);
        const QString first = QRegularExpression(QStringLiteral("whsec_\\S+")).match(output).captured(0);
        QVERIFY2(!first.isEmpty(), qPrintable(output));
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("webhook"), QStringLiteral("rotate-secret"),
                                                   QStringLiteral("--mode"), QStringLiteral("live")} +
                                           store,
                                       &output),
                 0);
        const QString second = QRegularExpression(QStringLiteral("whsec_\\S+")).match(output).captured(0);
        QVERIFY(!second.isEmpty() && second != first);
        QVERIFY(output.contains(QLatin1String("previous secret also signs")));
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("webhook"), QStringLiteral("show"),
                                                   QStringLiteral("--mode"), QStringLiteral("live")} +
                                           store,
                                       &output),
                 0);
        QVERIFY(output.contains(QLatin1String("https://shop.example.com/hook")));
        QVERIFY(!output.contains(QLatin1String("whsec_")));
    }
};

QTEST_GUILESS_MAIN(TestWebhookRestart)
#include "tst_webhookrestart.moc"

// Webhooks over real HTTP (issue 4): a TestReceiver (its own QHttpServer) stands in for the
// shop's system; signatures are checked here with QMessageAuthenticationCode, independently
// of the product's signer.
#include "clock.h"
#include "operatorcatalog.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "testreceiver.h"
#include "testserver.h"
#include "webhooks/webhookdispatcher.h"
#include "webhooks/webhookendpointrepository.h"
#include "webhooks/webhookinboxrepository.h"
#include "webhooks/webhookoutboxrepository.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSet>
#include <QSqlQuery>
#include <QTest>
#include <QThread>
#include <QTimeZone>
#include <QUrlQuery>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kVoucher = QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
const QString kDth = QStringLiteral("/api/v1/recharge/dth/initiate-transaction");
constexpr int kWaitMs = 15'000;

/// The Standard Webhooks signature, computed without the product's code.
QByteArray expectedSignature(const QString &secret, const QByteArray &id, const QByteArray &timestamp,
                             const QByteArray &body)
{
    const QByteArray key = QByteArray::fromBase64(secret.mid(6).toLatin1());
    return "v1," + QMessageAuthenticationCode::hash(id + '.' + timestamp + '.' + body, key, QCryptographicHash::Sha256)
                       .toBase64();
}

bool signedBy(const ReceivedHook &hook, const QString &secret)
{
    const QByteArray expected = expectedSignature(secret, hook.webhookId, hook.timestamp, hook.body);
    return hook.signature.split(' ').contains(expected);
}

QJsonObject hookData(const ReceivedHook &hook)
{
    return QJsonDocument::fromJson(hook.body).object().value(QStringLiteral("data")).toObject();
}

ServerOptions fastOptions(double retryScale = 0.0005)
{
    ServerOptions options = TestServer::defaultOptions();
    options.webhookRetryScale = retryScale;
    return options;
}

} // namespace

class TestWebhookDelivery final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<TestReceiver> m_receiver;

    HttpResult post(const QString &path, const QJsonObject &body, const QByteArray &auth)
    {
        return m_server->http().postJson(m_server->url(path), body, auth);
    }
    HttpResult put(const QString &path, const QJsonObject &body, const QByteArray &auth)
    {
        return m_server->http().send("PUT", m_server->url(path), QJsonDocument(body).toJson(),
                                     {{"Content-Type", "application/json"}, {"Authorization", auth}});
    }
    HttpResult get(const QString &path, const QByteArray &auth, const QUrlQuery &query = {})
    {
        QUrl url = m_server->url(path);
        url.setQuery(query);
        return m_server->http().get(url, auth);
    }

    /// Points the test-mode endpoint at `url`; returns the signing secret shown.
    QString setEndpoint(const QUrl &url, const QString &password = QStringLiteral("pw-shop-1"))
    {
        const HttpResult r =
            put(QStringLiteral("/api/v1/webhook-endpoint"),
                {{QStringLiteral("url"), url.toString()}, {QStringLiteral("webhook_password"), password}},
                m_server->admin());
        if (r.status != 201 && r.status != 200)
            qWarning("PUT webhook-endpoint: %d %s", r.status, r.body.constData());
        return r.data().value(QStringLiteral("secret")).toString();
    }

    /// Sells a mobile recharge for a number ending in `suffix`; returns the record.
    QJsonObject sellMobile(const QString &suffix)
    {
        const HttpResult r = post(kMobile,
                                  {{QStringLiteral("phone_number"), QString(QStringLiteral("987654") + suffix)},
                                   {QStringLiteral("amount"), 249},
                                   {QStringLiteral("operator_code"), QStringLiteral("AT")}},
                                  m_server->pos());
        if (r.status != 200)
            qWarning("sale: %d %s", r.status, r.body.constData());
        return r.data();
    }

    /// How many events the webhook outbox holds with `status` (pending, delivered, failed; empty: all).
    qint64 outboxEvents(const QString &status = {})
    {
        QSqlQuery &query =
            status.isEmpty()
                ? m_server->db().run(QStringLiteral("SELECT COUNT(*) FROM webhook_events"))
                : m_server->db().run(QStringLiteral("SELECT COUNT(*) FROM webhook_events WHERE status = ?"), {status});
        const qint64 count = query.next() ? query.value(0).toLongLong() : -1;
        query.finish();
        return count;
    }

    QJsonArray deliveries(const QUrlQuery &query = {}, const QByteArray &auth = {})
    {
        return get(QStringLiteral("/api/v1/webhook-deliveries"), auth.isEmpty() ? m_server->admin() : auth, query)
            .data()
            .value(QStringLiteral("items"))
            .toArray();
    }

    /// Writes a settlement's event for `account` and `mode` straight to the outbox, waking no one: the dispatcher
    /// finds it at its next look (at most WebhookDispatcher::kPollMs later).
    qint64 insertEventDirectly(qint64 account, Mode mode)
    {
        WebhookEvent event;
        event.accountId = account;
        event.mode = mode;
        event.eventType = QStringLiteral("event.mobile_recharge");
        event.payload = R"({"entity":"mobile_recharge","transaction_status":"SUCCESS"})";
        event.nextAttemptAtMs = QDateTime::currentMSecsSinceEpoch();
        event.createdAtMs = event.nextAttemptAtMs;
        return WebhookOutboxRepository(m_server->db()).insertEvent(event);
    }

    qint64 shopAccount() { return *AccountRepository(m_server->db()).findAccount(QStringLiteral("shop")); }

    /// The first attempt row of an event (the delivery log lists the newest first); empty until there is one.
    QJsonObject firstAttempt(qint64 eventId)
    {
        const QJsonArray rows = deliveries(QUrlQuery{{QStringLiteral("event_id"), QString::number(eventId)}});
        return rows.isEmpty() ? QJsonObject() : rows.last().toObject();
    }

    /// Waits, turning no event loop on this thread (the server's), until `eventId` has an attempt; true if it has.
    bool attemptedWithoutTheServerThread(qint64 eventId)
    {
        const QDeadlineTimer deadline(kWaitMs);
        const auto attempted = [&] {
            QSqlQuery &q = m_server->db().run(
                QStringLiteral("SELECT COUNT(*) FROM webhook_attempts WHERE event_id = ?"), {eventId});
            const bool any = q.next() && q.value(0).toInt() > 0;
            q.finish();
            return any;
        };
        while (!attempted() && !deadline.hasExpired())
            QThread::msleep(20);
        return attempted();
    }

    /// The attempt row's fields that do not depend on when or how fast it ran.
    static QJsonObject attemptOutcome(QJsonObject attempt)
    {
        for (const QString &key :
             {QStringLiteral("id"), QStringLiteral("datetime"), QStringLiteral("latency_ms"),
              QStringLiteral("event_id"), QStringLiteral("webhook_id"), QStringLiteral("transaction_id"),
              QStringLiteral("event_status"), QStringLiteral("next_attempt_at")})
            attempt.remove(key);
        return attempt;
    }

    /// Writes an endpoint at `host` (port of the receiver) and an event of `mode` straight to the
    /// database, as a CLI of an older version or an edited row might, so only the guard at
    /// delivery time stands between them and the network; returns the first delivery row.
    QJsonObject deliverStraightFromDatabase(Mode mode, const QString &host, const QByteArray &auth)
    {
        const qint64 account = *AccountRepository(m_server->db()).findAccount(QStringLiteral("shop"));
        WebhookEndpoint endpoint;
        endpoint.accountId = account;
        endpoint.mode = mode;
        endpoint.url = QStringLiteral("http://%1:%2/hook").arg(host).arg(m_receiver->port());
        endpoint.password = QStringLiteral("pw");
        endpoint.secret = QStringLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        WebhookEndpointRepository(m_server->db()).save(endpoint);
        insertEventDirectly(account, mode);
        QJsonArray rows;
        if (!QTest::qWaitFor([&] { return !(rows = deliveries({}, auth)).isEmpty(); }, kWaitMs))
            return {};
        return rows.at(0).toObject();
    }

private slots:
    void init()
    {
        m_server = std::make_unique<TestServer>(fastOptions());
        m_receiver = std::make_unique<TestReceiver>();
    }
    void cleanup()
    {
        m_server.reset();
        m_receiver.reset();
    }

    void pendingSaleIsDeliveredSignedWithTheInitiateRecord()
    {
        const QString secret = setEndpoint(m_receiver->url());
        QVERIFY(secret.startsWith(QLatin1String("whsec_")));
        QCOMPARE(QByteArray::fromBase64(secret.mid(6).toLatin1()).size(), 32);
        const QJsonObject sale = sellMobile(QStringLiteral("1111"));
        QCOMPARE(sale.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, kWaitMs);
        const ReceivedHook hook = m_receiver->requests().constFirst();

        QCOMPARE(hook.path, QByteArray("/hook"));
        QCOMPARE(hook.contentType, QByteArray("application/json"));
        // The version of project(VERSION …) reaches the receiver (issue 14).
        QCOMPARE(hook.userAgent, QByteArray("RechargeDesk-Webhooks/" RECHARGEDESK_EXPECTED_VERSION));
        QVERIFY(hook.webhookId.startsWith("msg_"));
        QVERIFY(qAbs(hook.timestamp.toLongLong() - QDateTime::currentSecsSinceEpoch()) <= 5);
        QVERIFY2(signedBy(hook, secret), hook.signature.constData());
        QVERIFY(!hook.signature.contains(' ')); // one secret, one signature

        const QJsonObject data = hookData(hook);
        QCOMPARE(data.keys(), (QStringList{QStringLiteral("entity"), QStringLiteral("payload"),
                                           QStringLiteral("webhook_event"), QStringLiteral("webhook_password")}));
        QCOMPARE(data.value(QStringLiteral("entity")).toString(), QStringLiteral("webhook"));
        QCOMPARE(data.value(QStringLiteral("webhook_event")).toString(), QStringLiteral("event.mobile_recharge"));
        QCOMPARE(data.value(QStringLiteral("webhook_password")).toString(), QStringLiteral("pw-shop-1"));
        const QJsonObject payload = data.value(QStringLiteral("payload")).toObject();
        // The same record as the initiate response, now settled.
        QJsonObject settled = sale;
        settled.insert(QStringLiteral("transaction_status"), QStringLiteral("SUCCESS"));
        QCOMPARE(payload, settled);
        QCOMPARE(payload.value(QStringLiteral("operator")).toString(), QStringLiteral("Airtel"));
        const QString path =
            QStringLiteral("/api/v1/transactions/%1").arg(sale.value(QStringLiteral("transaction_id")).toInteger());
        QCOMPARE(payload, get(path, m_server->pos()).data());
    }

    void everyKindAndFinalStatusHasItsEvent()
    {
        const QString secret = setEndpoint(m_receiver->url());
        const QJsonObject failing = sellMobile(QStringLiteral("2222"));
        const HttpResult voucher =
            post(kVoucher,
                 {{QStringLiteral("amount"), 100},
                  {QStringLiteral("customer_email"), QStringLiteral("asha+pending@example.com")}},
                 m_server->pos());
        const HttpResult dth = post(kDth,
                                    {{QStringLiteral("number"), QStringLiteral("1012341111")},
                                     {QStringLiteral("amount"), 300},
                                     {QStringLiteral("operator_code"), QStringLiteral("TS")}},
                                    m_server->pos());
        QCOMPARE(voucher.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QCOMPARE(dth.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 3, kWaitMs);
        QHash<QString, QJsonObject> byEvent;
        for (const ReceivedHook &hook : m_receiver->requests()) {
            QVERIFY(signedBy(hook, secret));
            byEvent.insert(hookData(hook).value(QStringLiteral("webhook_event")).toString(),
                           hookData(hook).value(QStringLiteral("payload")).toObject());
        }
        const QJsonObject mobile = byEvent.value(QStringLiteral("event.mobile_recharge"));
        QCOMPARE(mobile.value(QStringLiteral("transaction_id")), failing.value(QStringLiteral("transaction_id")));
        QCOMPARE(mobile.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        const QJsonObject code = byEvent.value(QStringLiteral("event.appstore_voucher"));
        QCOMPARE(code.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(code.value(QStringLiteral("redeem_code")).toString().size(), 19);
        QCOMPARE(code.value(QStringLiteral("customer_email")).toString(), QStringLiteral("asha+pending@example.com"));
        QCOMPARE(byEvent.value(QStringLiteral("event.dth_recharge")).value(QStringLiteral("operator")).toString(),
                 QStringLiteral("Tata Play"));
    }

    void salesFinalAtOnceEmitNothing()
    {
        setEndpoint(m_receiver->url());
        QCOMPARE(sellMobile(QStringLiteral("5555")).value(QStringLiteral("transaction_status")).toString(),
                 QStringLiteral("SUCCESS"));
        QCOMPARE(sellMobile(QStringLiteral("0000")).value(QStringLiteral("transaction_status")).toString(),
                 QStringLiteral("FAILED"));
        const QJsonObject pending = sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, kWaitMs);
        // Nothing else may arrive: the sales final at once wrote no event, and the one event is delivered.
        QTRY_COMPARE_WITH_TIMEOUT(outboxEvents(QStringLiteral("delivered")), 1, kWaitMs);
        QCOMPARE(outboxEvents(), 1);
        QCOMPARE(m_receiver->requests().size(), 1);
        QCOMPARE(m_receiver->requests().constFirst().transactionId(),
                 pending.value(QStringLiteral("transaction_id")).toInteger());
        QCOMPARE(deliveries().size(), 1);
    }

    void failuresAreRetriedWithTheSameWebhookId()
    {
        const QString secret = setEndpoint(m_receiver->url());
        m_receiver->setResponder([](const ReceivedHook &, int index) { return index < 3 ? 503 : 200; });
        sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->accepted().size(), 1, kWaitMs);
        const QList<ReceivedHook> requests = m_receiver->requests();
        QCOMPARE(requests.size(), 4);
        for (const ReceivedHook &hook : requests) {
            QCOMPARE(hook.webhookId, requests.constFirst().webhookId);
            QVERIFY(signedBy(hook, secret)); // each try is signed with its own timestamp
        }
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().size(), 4, kWaitMs);
        const QJsonArray log = deliveries();
        for (int i = 0; i < 4; ++i) {
            const QJsonObject row = log.at(i).toObject();
            QCOMPARE(row.value(QStringLiteral("entity")).toString(), QStringLiteral("webhook_delivery"));
            QCOMPARE(row.value(QStringLiteral("attempt")).toInt(), 4 - i); // newest first
            QCOMPARE(row.value(QStringLiteral("webhook_id")).toString(),
                     QString::fromLatin1(requests.constFirst().webhookId));
            QCOMPARE(row.value(QStringLiteral("http_status")).toInt(), i == 0 ? 200 : 503);
            QCOMPARE(row.value(QStringLiteral("success")).toBool(), i == 0);
            QCOMPARE(row.value(QStringLiteral("event_status")).toString(), QStringLiteral("delivered"));
            QVERIFY(row.value(QStringLiteral("latency_ms")).toInteger() >= 0);
            QCOMPARE(row.value(QStringLiteral("error")).isNull(), i == 0);
        }
        QCOMPARE(deliveries(QUrlQuery(QStringLiteral("success=false"))).size(), 3);
        QCOMPARE(deliveries(QUrlQuery(QStringLiteral("status=pending"))).size(), 0);
        QCOMPARE(get(QStringLiteral("/api/v1/webhook-deliveries"), m_server->admin(),
                     QUrlQuery(QStringLiteral("status=sent")))
                     .status,
                 400);
    }

    void receiverDownThenUp()
    {
        setEndpoint(m_receiver->url());
        m_receiver->stop();
        const QJsonObject sale = sellMobile(QStringLiteral("1111"));
        QTRY_VERIFY_WITH_TIMEOUT(deliveries().size() >= 2, kWaitMs);
        const QJsonObject failed = deliveries().at(0).toObject();
        QVERIFY(failed.value(QStringLiteral("http_status")).isNull());
        QVERIFY(!failed.value(QStringLiteral("error")).toString().isEmpty());
        QCOMPARE(failed.value(QStringLiteral("event_status")).toString(), QStringLiteral("pending"));
        QVERIFY(m_receiver->restart());
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->accepted().size(), 1, kWaitMs);
        QCOMPARE(m_receiver->accepted().constFirst().transactionId(),
                 sale.value(QStringLiteral("transaction_id")).toInteger());
    }

    void goneDisablesTheEndpoint()
    {
        setEndpoint(m_receiver->url());
        m_receiver->setResponder([](const ReceivedHook &, int) { return 410; });
        sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().size(), 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().at(0).toObject().value(QStringLiteral("event_status")).toString(),
                                  QStringLiteral("failed"), kWaitMs);
        const QJsonObject endpoint = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin()).data();
        QCOMPARE(endpoint.value(QStringLiteral("enabled")).toBool(), false);
        QVERIFY(endpoint.value(QStringLiteral("disabled_reason")).toString().contains(QLatin1String("410")));

        sellMobile(QStringLiteral("1111")); // not sent while disabled
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().size(), 2, kWaitMs);
        QCOMPARE(m_receiver->requests().size(), 1);
        QVERIFY(deliveries()
                    .at(0)
                    .toObject()
                    .value(QStringLiteral("error"))
                    .toString()
                    .contains(QLatin1String("disabled")));

        m_receiver->setResponder({});
        setEndpoint(m_receiver->url()); // setting it again enables it
        QVERIFY(get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin())
                    .data()
                    .value(QStringLiteral("enabled"))
                    .toBool());
        sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->accepted().size(), 1, kWaitMs);
    }

    void redirectsAreNotFollowed()
    {
        setEndpoint(m_receiver->url());
        m_receiver->setRedirectTarget(m_receiver->url(QStringLiteral("/elsewhere")).toEncoded());
        m_receiver->setResponder([](const ReceivedHook &hook, int) { return hook.path == "/hook" ? 302 : 200; });
        sellMobile(QStringLiteral("1111"));
        QTRY_VERIFY_WITH_TIMEOUT(deliveries().size() >= 2, kWaitMs);
        for (const ReceivedHook &hook : m_receiver->requests())
            QCOMPARE(hook.path, QByteArray("/hook"));
        const QJsonObject row = deliveries().last().toObject();
        QCOMPARE(row.value(QStringLiteral("http_status")).toInt(), 302);
        QCOMPARE(row.value(QStringLiteral("success")).toBool(), false);
        QVERIFY(row.value(QStringLiteral("error")).toString().contains(QLatin1String("not followed")));
    }

    // Issue 12: the signing secrets and the webhook_password are sealed with the vault at rest, as the upstream's
    // secrets and Aadhaar numbers are: a copy of the database (a backup, another local user) signs nothing.
    void secretsAreSealedAtRest()
    {
        const QString password = QStringLiteral("pw-shop-sealed");
        const QString first = setEndpoint(m_receiver->url(), password);
        QVERIFY(first.startsWith(QLatin1String("whsec_")));
        const HttpResult rotated =
            post(QStringLiteral("/api/v1/webhook-endpoint/rotate-secret"), {}, m_server->admin());
        const QString second = rotated.data().value(QStringLiteral("secret")).toString();
        QVERIFY(second.startsWith(QLatin1String("whsec_")));
        for (const QString &value : {first, second, first.mid(6), second.mid(6), password})
            QVERIFY2(m_server->cellsContaining(value).isEmpty(),
                     qPrintable(m_server->cellsContaining(value).join(u' ')));
        QVERIFY(m_server->cellsContaining(QStringLiteral("whsec_")).isEmpty());

        // Still signed with both (unsealed in memory only).
        sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, kWaitMs);
        const ReceivedHook hook = m_receiver->requests().constFirst();
        QCOMPARE(hook.signature.split(' '),
                 (QByteArrayList{expectedSignature(second, hook.webhookId, hook.timestamp, hook.body),
                                 expectedSignature(first, hook.webhookId, hook.timestamp, hook.body)}));
        QCOMPARE(hookData(hook).value(QStringLiteral("webhook_password")).toString(), password);
    }

    void clearSecretsOfAnOlderVersionAreSealedAtStart()
    {
        // A row as a version before issue 12 wrote it: the secret and password in the clear.
        const qint64 account = *AccountRepository(m_server->db()).findAccount(QStringLiteral("shop"));
        const QString secret = QStringLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        WebhookEndpoint endpoint;
        endpoint.accountId = account;
        endpoint.mode = Mode::Test;
        endpoint.url = m_receiver->url().toString();
        endpoint.password = QStringLiteral("old-clear-password");
        endpoint.secret = secret;
        WebhookEndpointRepository(m_server->db()).save(endpoint); // no vault: clear
        QVERIFY(!m_server->cellsContaining(secret).isEmpty());

        // The next start seals them (the server's constructor; it need not listen).
        ServerOptions options = fastOptions();
        options.dataDir = m_server->dataDir();
        SystemClock clock;
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        {
            const ApiServer restarted(m_server->db(), catalog, clock, options);
        }
        QVERIFY2(m_server->cellsContaining(secret).isEmpty(), qPrintable(m_server->cellsContaining(secret).join(u' ')));
        QVERIFY(m_server->cellsContaining(QStringLiteral("old-clear-password")).isEmpty());

        // And they still sign and authenticate what goes out.
        sellMobile(QStringLiteral("2222"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, kWaitMs);
        const ReceivedHook hook = m_receiver->requests().constFirst();
        QCOMPARE(hook.signature, expectedSignature(secret, hook.webhookId, hook.timestamp, hook.body));
        QCOMPARE(hookData(hook).value(QStringLiteral("webhook_password")).toString(),
                 QStringLiteral("old-clear-password"));
    }

    void rotationSignsWithBothSecrets()
    {
        const QString oldSecret = setEndpoint(m_receiver->url());
        const HttpResult rotated =
            post(QStringLiteral("/api/v1/webhook-endpoint/rotate-secret"), {}, m_server->admin());
        QCOMPARE(rotated.status, 200);
        const QString newSecret = rotated.data().value(QStringLiteral("secret")).toString();
        QVERIFY(newSecret.startsWith(QLatin1String("whsec_")));
        QVERIFY(newSecret != oldSecret);
        const QJsonObject shown = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin()).data();
        QVERIFY(!shown.contains(QStringLiteral("secret"))); // shown only when made
        QVERIFY(shown.value(QStringLiteral("previous_secret_expires_at")).isString());

        sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests().size(), 1, kWaitMs);
        const ReceivedHook hook = m_receiver->requests().constFirst();
        const QByteArrayList signatures = hook.signature.split(' ');
        QCOMPARE(signatures.size(), 2);
        QCOMPARE(signatures.at(0), expectedSignature(newSecret, hook.webhookId, hook.timestamp, hook.body));
        QCOMPARE(signatures.at(1), expectedSignature(oldSecret, hook.webhookId, hook.timestamp, hook.body));
    }

    void liveModeRefusesPrivateTargets_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("reason");
        QTest::newRow("loopback literal")
            << QStringLiteral("http://127.0.0.1:8080/hook") << QStringLiteral("forbidden_target");
        QTest::newRow("private 10/8") << QStringLiteral("http://10.0.0.1/hook") << QStringLiteral("forbidden_target");
        QTest::newRow("link-local metadata")
            << QStringLiteral("http://169.254.169.254/latest") << QStringLiteral("forbidden_target");
        QTest::newRow("ipv6 loopback") << QStringLiteral("http://[::1]:8080/") << QStringLiteral("forbidden_target");
        QTest::newRow("localhost") << QStringLiteral("http://localhost/") << QStringLiteral("forbidden_target");
        QTest::newRow("ftp") << QStringLiteral("ftp://example.com/") << QStringLiteral("invalid_url");
        QTest::newRow("user info") << QStringLiteral("https://u:p@example.com/") << QStringLiteral("invalid_url");
    }
    void liveModeRefusesPrivateTargets()
    {
        QFETCH(QString, url);
        QFETCH(QString, reason);
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Admin);
        const HttpResult r =
            put(QStringLiteral("/api/v1/webhook-endpoint"),
                {{QStringLiteral("url"), url}, {QStringLiteral("webhook_password"), QStringLiteral("p")}}, live);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("url"));
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), reason);
    }

    void testModeRefusesPrivateTargets_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("status"); // 201: accepted (the endpoint is created)
        QTest::newRow("private 10/8") << QStringLiteral("http://10.0.0.1/hook") << 400;
        QTest::newRow("private 192.168") << QStringLiteral("http://192.168.1.20:8080/hook") << 400;
        QTest::newRow("link-local metadata") << QStringLiteral("http://169.254.169.254/latest") << 400;
        QTest::newRow("v4-compatible private") << QStringLiteral("http://[::10.0.0.1]/hook") << 400;
        QTest::newRow("unique-local") << QStringLiteral("http://[fd00::1]/hook") << 400;
        QTest::newRow("loopback") << QStringLiteral("http://127.0.0.1:8080/hook") << 201;
        QTest::newRow("localhost") << QStringLiteral("http://localhost:8080/hook") << 201;
        QTest::newRow("public") << QStringLiteral("https://shop.example.com/hook") << 201;
    }
    void testModeRefusesPrivateTargets()
    {
        QFETCH(QString, url);
        QFETCH(int, status);
        const HttpResult r =
            put(QStringLiteral("/api/v1/webhook-endpoint"),
                {{QStringLiteral("url"), url}, {QStringLiteral("webhook_password"), QStringLiteral("p")}},
                m_server->admin());
        QCOMPARE(r.status, status);
        if (status == 400) {
            QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("url"));
            QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("forbidden_target"));
        }
    }

    void liveDeliveryChecksTheResolvedAddress_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("why");
        QTest::newRow("name resolving to loopback") << QStringLiteral("localhost") << QStringLiteral("loopback");
        QTest::newRow("private address") << QStringLiteral("10.0.0.1") << QStringLiteral("private");
        QTest::newRow("CGNAT address") << QStringLiteral("100.64.0.1") << QStringLiteral("carrier-grade NAT");
    }
    void liveDeliveryChecksTheResolvedAddress()
    {
        QFETCH(QString, host);
        QFETCH(QString, why);
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Admin);
        const QJsonObject row = deliverStraightFromDatabase(Mode::Live, host, live);
        const QString error = row.value(QStringLiteral("error")).toString();
        QVERIFY2(error.startsWith(QLatin1String("refused")) && error.contains(why), qPrintable(error));
        QVERIFY(row.value(QStringLiteral("http_status")).isNull());
        QCOMPARE(row.value(QStringLiteral("event_status")).toString(), QStringLiteral("pending")); // retried later
        QCOMPARE(m_receiver->requests().size(), 0); // no connection was made
        QVERIFY(deliveries().isEmpty());            // test mode's log is separate
    }

    void testDeliveryChecksTheResolvedAddress_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("why");
        QTest::newRow("private address") << QStringLiteral("10.0.0.1") << QStringLiteral("private");
        QTest::newRow("v4-compatible link-local")
            << QStringLiteral("[::169.254.169.254]") << QStringLiteral("link-local");
    }
    void testDeliveryChecksTheResolvedAddress()
    {
        QFETCH(QString, host);
        QFETCH(QString, why);
        const QJsonObject row = deliverStraightFromDatabase(Mode::Test, host, m_server->admin());
        const QString error = row.value(QStringLiteral("error")).toString();
        QVERIFY2(error.startsWith(QLatin1String("refused")) && error.contains(why), qPrintable(error));
        QVERIFY(row.value(QStringLiteral("http_status")).isNull());
        QCOMPARE(m_receiver->requests().size(), 0);
    }

    void builtInInboxShowsTheRoundTrip()
    {
        const QJsonObject sale = sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(get(QStringLiteral("/api/v1/webhook-inbox"), m_server->admin())
                                      .data()
                                      .value(QStringLiteral("count"))
                                      .toInt(),
                                  1, kWaitMs);
        const QJsonObject message = get(QStringLiteral("/api/v1/webhook-inbox"), m_server->admin())
                                        .data()
                                        .value(QStringLiteral("items"))
                                        .toArray()
                                        .at(0)
                                        .toObject();
        QCOMPARE(message.value(QStringLiteral("webhook_event")).toString(), QStringLiteral("event.mobile_recharge"));
        QCOMPARE(message.value(QStringLiteral("transaction_id")), sale.value(QStringLiteral("transaction_id")));
        QCOMPARE(message.value(QStringLiteral("deliveries")).toInt(), 1);
        const QJsonObject data =
            message.value(QStringLiteral("body")).toObject().value(QStringLiteral("data")).toObject();
        QCOMPARE(
            data.value(QStringLiteral("payload")).toObject().value(QStringLiteral("transaction_status")).toString(),
            QStringLiteral("SUCCESS"));

        const QJsonObject endpoint = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin()).data();
        QCOMPARE(endpoint.value(QStringLiteral("builtin_inbox")).toBool(), true);
        QCOMPARE(endpoint.value(QStringLiteral("url")).toString(),
                 m_server->url(QStringLiteral("/hooks/inbox")).toString());
        QCOMPARE(data.value(QStringLiteral("webhook_password")), endpoint.value(QStringLiteral("webhook_password")));
        // The attempt row is written up to kFlushDelayMs after the inbox stored the message (and on PostgreSQL
        // that commit can come later than the test's next read).
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().at(0).toObject().value(QStringLiteral("http_status")).toInt(), 200,
                                  kWaitMs);
    }

    void inboxChecksSignatureAndPasswordAndDedupes()
    {
        // The first read creates the default endpoint, so it shows the secret.
        const QJsonObject endpoint = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin()).data();
        const QString secret = endpoint.value(QStringLiteral("secret")).toString();
        const QString password = endpoint.value(QStringLiteral("webhook_password")).toString();
        QVERIFY(secret.startsWith(QLatin1String("whsec_")));
        const auto message = [](const QString &pw) {
            return QJsonDocument(QJsonObject{{QStringLiteral("data"),
                                              QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook")},
                                                          {QStringLiteral("webhook_event"),
                                                           QStringLiteral("event.mobile_recharge")},
                                                          {QStringLiteral("webhook_password"), pw},
                                                          {QStringLiteral("payload"),
                                                           QJsonObject{{QStringLiteral("transaction_id"), 7}}}}}})
                .toJson(QJsonDocument::Compact);
        };
        const auto send = [&](const QByteArray &id, qint64 timestamp, const QByteArray &body, const QString &key) {
            const QByteArray ts = QByteArray::number(timestamp);
            return m_server->http().send("POST", m_server->url(QStringLiteral("/hooks/inbox")), body,
                                         {{"Content-Type", "application/json"},
                                          {"webhook-id", id},
                                          {"webhook-timestamp", ts},
                                          {"webhook-signature", expectedSignature(key, id, ts, body)}});
        };
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QByteArray body = message(password);

        HttpResult r = send("msg_one", now, body, secret);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("duplicate")).toBool(), false);
        r = send("msg_one", now, body, secret);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("duplicate")).toBool(), true);

        const QString other = QStringLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        r = send("msg_two", now, body, other);
        QCOMPARE(r.status, 401);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_signature"));
        r = send("msg_two", now, message(QStringLiteral("guess")), secret);
        QCOMPARE(r.status, 401);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_webhook_password"));
        r = send("msg_two", now - 600, body, secret);
        QCOMPARE(r.status, 401);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("timestamp_out_of_tolerance"));
        r = m_server->http().send("POST", m_server->url(QStringLiteral("/hooks/inbox")), body,
                                  {{"Content-Type", "application/json"}});
        QCOMPARE(r.status, 401); // unsigned: no authentication (IncomingWebhook)
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("missing_webhook_headers"));

        const QJsonObject inbox = get(QStringLiteral("/api/v1/webhook-inbox"), m_server->admin()).data();
        QCOMPARE(inbox.value(QStringLiteral("count")).toInt(), 1);
        const QJsonObject stored = inbox.value(QStringLiteral("items")).toArray().at(0).toObject();
        QCOMPARE(stored.value(QStringLiteral("webhook_id")).toString(), QStringLiteral("msg_one"));
        QCOMPARE(stored.value(QStringLiteral("deliveries")).toInt(), 2);
    }

    void adminEndpointsCheckScopeAndInput()
    {
        QCOMPARE(get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->pos()).status, 403);
        QCOMPARE(get(QStringLiteral("/api/v1/webhook-deliveries"), m_server->pos()).status, 403);
        QCOMPARE(get(QStringLiteral("/api/v1/webhook-inbox"), QByteArray()).status, 401);
        HttpResult r = put(QStringLiteral("/api/v1/webhook-endpoint"),
                           {{QStringLiteral("url"), m_receiver->url().toString()}}, m_server->admin());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("webhook_password"));
        r = put(QStringLiteral("/api/v1/webhook-endpoint"),
                {{QStringLiteral("url"), QStringLiteral("not a url")},
                 {QStringLiteral("webhook_password"), QStringLiteral("p")}},
                m_server->admin());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("url"));
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Admin);
        r = get(QStringLiteral("/api/v1/webhook-endpoint"), live);
        QCOMPARE(r.status, 404);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("webhook_endpoint_not_configured"));
        QCOMPARE(post(QStringLiteral("/api/v1/webhook-deliveries/999/redeliver"), {}, m_server->admin()).status, 404);
    }

    void testEventAndRedelivery()
    {
        const QString secret = setEndpoint(m_receiver->url());
        const HttpResult sent = post(QStringLiteral("/api/v1/webhook-endpoint/test"), {}, m_server->admin());
        QCOMPARE(sent.status, 202);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->accepted().size(), 1, kWaitMs);
        const ReceivedHook first = m_receiver->accepted().constFirst();
        QCOMPARE(hookData(first).value(QStringLiteral("webhook_event")).toString(), QStringLiteral("event.test"));
        QCOMPARE(QString::fromLatin1(first.webhookId), sent.data().value(QStringLiteral("webhook_id")).toString());
        QVERIFY(signedBy(first, secret));

        QTRY_COMPARE_WITH_TIMEOUT(deliveries().size(), 1, kWaitMs);
        const qint64 deliveryId = deliveries().at(0).toObject().value(QStringLiteral("id")).toInteger();
        const HttpResult again =
            post(QStringLiteral("/api/v1/webhook-deliveries/%1/redeliver").arg(deliveryId), {}, m_server->admin());
        QCOMPARE(again.status, 202);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->accepted().size(), 2, kWaitMs);
        QCOMPARE(m_receiver->accepted().at(1).webhookId, first.webhookId);
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().size(), 2, kWaitMs);
        QCOMPARE(deliveries().at(0).toObject().value(QStringLiteral("attempt")).toInt(), 2);
    }

    void deliveryDoesNotNeedTheServerThread()
    {
        // Issue 17: the dispatcher claims, sends and records on a thread with a database connection of its own.
        // The receiver answers on a thread of its own too, and this thread (the server's) then turns no event
        // loop at all while the event is delivered: the old dispatcher, on the server thread, never ran.
        quint16 port = 0;
        QSemaphore listening;
        const std::unique_ptr<QThread> receiverThread(QThread::create([&] {
            TestReceiver receiver; // answers 200
            port = receiver.port();
            listening.release();
            QEventLoop loop; // until receiverThread->quit()
            loop.exec();
        }));
        receiverThread->start();
        QVERIFY(listening.tryAcquire(1, kWaitMs));
        setEndpoint(QUrl(QStringLiteral("http://127.0.0.1:%1/hook").arg(port)));
        insertEventDirectly(shopAccount(), Mode::Test);
        // Not QTRY: it would turn this thread's event loop, where the old dispatcher ran.
        const QDeadlineTimer deadline(kWaitMs);
        while (outboxEvents(QStringLiteral("delivered")) < 1 && !deadline.hasExpired())
            QThread::msleep(20);
        receiverThread->quit();
        receiverThread->wait();
        QCOMPARE(outboxEvents(QStringLiteral("delivered")), 1);
        QTRY_COMPARE_WITH_TIMEOUT(deliveries().size(), 1, kWaitMs);
        QCOMPARE(deliveries().at(0).toObject().value(QStringLiteral("http_status")).toInt(), 200);
    }

    void builtInInboxIsReachedDirectlyWithTheRowsOfHttp()
    {
        // Issue 17: the delivery thread checks and stores a delivery to the built-in inbox itself. This thread (the
        // server's, which answers POST /hooks/inbox) turns no event loop while it happens: a delivery over HTTP
        // would wait for it and never arrive.
        const QJsonObject builtin = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin()).data();
        QCOMPARE(builtin.value(QStringLiteral("builtin_inbox")).toBool(), true);
        const QString password = builtin.value(QStringLiteral("webhook_password")).toString();
        const qint64 direct = insertEventDirectly(shopAccount(), Mode::Test);
        QVERIFY(attemptedWithoutTheServerThread(direct));

        // The same over HTTP: the endpoint set to this server's inbox URL by hand (not the built-in default).
        setEndpoint(m_server->url(QStringLiteral("/hooks/inbox")), password);
        QCOMPARE(get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin())
                     .data()
                     .value(QStringLiteral("builtin_inbox"))
                     .toBool(),
                 false);
        const qint64 overHttp = insertEventDirectly(shopAccount(), Mode::Test);
        QTRY_VERIFY_WITH_TIMEOUT(!firstAttempt(overHttp).isEmpty(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(outboxEvents(QStringLiteral("delivered")), 2, kWaitMs);

        // Same attempt rows (but for times and ids), same inbox rows, and each body exactly the signed one.
        const QJsonObject directAttempt = firstAttempt(direct);
        QCOMPARE(directAttempt.value(QStringLiteral("http_status")).toInt(), 200);
        QCOMPARE(directAttempt.value(QStringLiteral("url")).toString(),
                 m_server->url(QStringLiteral("/hooks/inbox")).toString());
        QCOMPARE(attemptOutcome(directAttempt), attemptOutcome(firstAttempt(overHttp)));
        const QList<InboxMessage> inbox = WebhookInboxRepository(m_server->db()).list(shopAccount(), Mode::Test, 10, 0);
        QCOMPARE(inbox.size(), 2);
        WebhookOutboxRepository outbox(m_server->db());
        for (const qint64 eventId : {direct, overHttp}) {
            const WebhookEvent event = *outbox.findEvent(eventId);
            const auto message = std::find_if(inbox.cbegin(), inbox.cend(),
                                              [&](const InboxMessage &m) { return m.webhookId == event.webhookId; });
            QVERIFY(message != inbox.cend());
            QCOMPARE(message->body, WebhookDispatcher::body(event, password));
            QCOMPARE(message->eventType, event.eventType);
            QCOMPARE(message->deliveries, 1);
            QCOMPARE(message->mode, Mode::Test);
        }
    }

    /// webhook-ids are "msg_" and 26 base-36 characters, creation time first (issue 17's soak: random ids made the
    /// unique indexes on webhook_id write a new page per event as the outbox grew): later events' ids sort after
    /// earlier ones, across a second, an hour and years, and events of one millisecond still differ.
    void webhookIdsSortByCreationTime()
    {
        const qint64 account = shopAccount();
        WebhookOutboxRepository outbox(m_server->db());
        const qint64 t0 = QDateTime(QDate(2026, 11, 28), QTime(11, 0), QTimeZone(19800)).toMSecsSinceEpoch();
        QStringList ids;
        QSet<QString> distinct;
        for (const qint64 createdAt :
             {qint64(0), t0, t0, t0, t0 + 1, t0 + 999, t0 + 1000, t0 + 3'600'000, t0 + 10 * 365 * 86'400'000LL}) {
            WebhookEvent event;
            event.accountId = account;
            event.eventType = QStringLiteral("event.test");
            event.payload = "{}";
            event.nextAttemptAtMs = createdAt;
            event.createdAtMs = createdAt;
            outbox.insertEvent(event);
            QVERIFY2(QRegularExpression(QStringLiteral("^msg_[0-9a-z]{26}$")).match(event.webhookId).hasMatch(),
                     qPrintable(event.webhookId));
            QCOMPARE(outbox.findEvent(event.id)->webhookId, event.webhookId);
            ids << event.webhookId;
            distinct.insert(event.webhookId);
        }
        QCOMPARE(distinct.size(), ids.size());
        for (qsizetype i = 1; i < ids.size(); ++i) {
            // Same millisecond: any order, but the time part is the same.
            if (i >= 2 && i <= 3)
                QCOMPARE(ids.at(i).left(13), ids.at(i - 1).left(13));
            else
                QVERIFY2(ids.at(i - 1) < ids.at(i), qPrintable(ids.at(i - 1) + QLatin1String(" !< ") + ids.at(i)));
        }
        QCOMPARE(ids.constFirst().left(13), QStringLiteral("msg_000000000"));
    }

    void builtInInboxRefusalIsTheAnswerHttpWouldGet()
    {
        // The account's live endpoint (its row first in the inbox's search) signs with the same secret as its test
        // endpoint but has another webhook_password: the inbox finds it as the signer and refuses the password
        // with 401. A direct delivery must record what an HTTP delivery records.
        const QString builtinSecret = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin())
                                          .data()
                                          .value(QStringLiteral("secret"))
                                          .toString();
        QVERIFY(builtinSecret.startsWith(QLatin1String("whsec_")));
        const auto shareLiveSecret = [&](const QString &secret) {
            WebhookEndpoint live;
            live.accountId = shopAccount();
            live.mode = Mode::Live;
            live.url = QStringLiteral("https://example.com/hook");
            live.password = QStringLiteral("another-password");
            live.secret = secret;
            WebhookEndpointRepository(m_server->db()).save(live);
        };
        shareLiveSecret(builtinSecret);
        const qint64 direct = insertEventDirectly(shopAccount(), Mode::Test);
        QVERIFY(attemptedWithoutTheServerThread(direct));

        const QString password = get(QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin())
                                     .data()
                                     .value(QStringLiteral("webhook_password"))
                                     .toString();
        shareLiveSecret(setEndpoint(m_server->url(QStringLiteral("/hooks/inbox")), password));
        const qint64 overHttp = insertEventDirectly(shopAccount(), Mode::Test);
        QTRY_VERIFY_WITH_TIMEOUT(!firstAttempt(overHttp).isEmpty(), kWaitMs);

        const QJsonObject directAttempt = firstAttempt(direct);
        QCOMPARE(directAttempt.value(QStringLiteral("http_status")).toInt(), 401);
        QCOMPARE(directAttempt.value(QStringLiteral("success")).toBool(), false);
        QCOMPARE(directAttempt.value(QStringLiteral("error")).toString(), QStringLiteral("HTTP 401"));
        QCOMPARE(attemptOutcome(directAttempt), attemptOutcome(firstAttempt(overHttp)));
        QCOMPARE(WebhookInboxRepository(m_server->db()).list(shopAccount(), Mode::Test, 10, 0).size(), 0);
    }

    void apiAnswersWhileDeliveryWaitsForTheDatabase()
    {
        // Issue 17: the dispatcher waits on its own thread. Another connection holds the outbox (SQLite: the write
        // lock, PostgreSQL: the table), so the dispatcher's claim of a due event waits up to the busy timeout; the
        // API's reads meanwhile answer at once. With the dispatcher on the server thread they waited with it.
        QString error;
        const std::unique_ptr<Database> other = Database::open(m_server->db().location(), &error);
        QVERIFY2(other, qPrintable(error));
        const qint64 eventId = insertEventDirectly(shopAccount(), Mode::Test);
        {
            WriteTransaction holding(*other);
            if (other->isPostgres())
                other->execute(QStringLiteral("LOCK TABLE webhook_events IN EXCLUSIVE MODE"));
            // For longer than the dispatcher's poll: it tries its claim, and waits, within this time.
            const QDeadlineTimer deadline(3 * WebhookDispatcher::kPollMs);
            int answered = 0;
            while (!deadline.hasExpired()) {
                QElapsedTimer elapsed;
                elapsed.start();
                QCOMPARE(m_server->http().get(m_server->url(QStringLiteral("/healthz"))).status, 200);
                QVERIFY2(elapsed.elapsed() < 1000, qPrintable(QStringLiteral("%1 ms").arg(elapsed.elapsed())));
                ++answered;
            }
            QVERIFY(answered > 1);
            QCOMPARE(outboxEvents(QStringLiteral("delivered")), 0);
        } // rolled back: the claim goes through
        QTRY_COMPARE_WITH_TIMEOUT(outboxEvents(QStringLiteral("delivered")), 1, kWaitMs);
        QVERIFY(!firstAttempt(eventId).isEmpty());
    }

    void exhaustedScheduleMarksTheEventFailed()
    {
        // 0.00001 squeezes the whole 3-day schedule into about 3 seconds.
        m_server = std::make_unique<TestServer>(fastOptions(0.00001));
        setEndpoint(m_receiver->url());
        m_receiver->setResponder([](const ReceivedHook &, int) { return 500; });
        sellMobile(QStringLiteral("1111"));
        QTRY_COMPARE_WITH_TIMEOUT(deliveries(QUrlQuery(QStringLiteral("status=failed"))).size(), 10, 30'000);
        // The event is failed for good (the dispatcher takes only pending ones), so no attempt can follow.
        QTRY_COMPARE_WITH_TIMEOUT(outboxEvents(QStringLiteral("failed")), 1, kWaitMs);
        QCOMPARE(outboxEvents(), 1);
        QCOMPARE(m_receiver->requests().size(), 10); // first try + 9 retries, then no more
        QCOMPARE(deliveries().at(0).toObject().value(QStringLiteral("attempt")).toInt(), 10);
    }
};

QTEST_GUILESS_MAIN(TestWebhookDelivery)
#include "tst_webhookdelivery.moc"

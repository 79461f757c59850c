// webhook_bench: webhook delivery figures for docs/benchmarks.md ("Webhook delivery").
//  1. throughput: N events put straight into the outbox, delivered to a local receiver
//     (a QHttpServer on its own thread); deliveries per second from first to last receipt.
//  2. latency: PENDING sandbox sales over HTTP; from the commit of each status change
//     (SettlementService::settled) to the receipt at the receiver, p50 / p99 / max.
// Usage: webhook_bench [EVENTS=5000] [SALES=500]. Build type Release for real figures.
#include "apiserver.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "httpclient.h"
#include "operatorcatalog.h"
#include "services/settlementservice.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "webhooks/webhookendpointrepository.h"
#include "webhooks/webhookoutboxrepository.h"
#include "webhooks/webhooksigner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QHttpServer>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace {

qint64 nowUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// A receiver on its own thread: answers 200 at once and notes when each id arrived.
class Receiver final : public QObject
{
    Q_OBJECT

public:
    void start()
    {
        m_server = new QHttpServer(this);
        m_server->setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            const qint64 at = nowUs();
            const QJsonObject data =
                QJsonDocument::fromJson(request.body()).object().value(QStringLiteral("data")).toObject();
            const qint64 id = qint64(
                data.value(QStringLiteral("payload")).toObject().value(QStringLiteral("transaction_id")).toDouble());
            {
                QMutexLocker lock(&m_mutex);
                if (!m_received.contains(id))
                    m_received.insert(id, at);
            }
            responder.write(QHttpServerResponder::StatusCode::Ok);
        });
        m_port = m_server->listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_port; }
    QHash<qint64, qint64> received()
    {
        QMutexLocker lock(&m_mutex);
        return m_received;
    }
    qsizetype count()
    {
        QMutexLocker lock(&m_mutex);
        return m_received.size();
    }
    void clear()
    {
        QMutexLocker lock(&m_mutex);
        m_received.clear();
    }

private:
    QHttpServer *m_server = nullptr;
    quint16 m_port = 0;
    QMutex m_mutex;
    QHash<qint64, qint64> m_received;
};

bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype index = std::min(values.size() - 1, qsizetype(p * double(values.size() - 1) + 0.5));
    return values.at(index);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int events = argc > 1 ? QByteArray(argv[1]).toInt() : 5000;
    const int sales = argc > 2 ? QByteArray(argv[2]).toInt() : 500;

    QThread receiverThread;
    auto *receiver = new Receiver;
    receiver->moveToThread(&receiverThread);
    receiverThread.start();
    QMetaObject::invokeMethod(receiver, &Receiver::start, Qt::BlockingQueuedConnection);

    QTemporaryDir dir;
    QString error;
    std::unique_ptr<Database> db = Database::open(dir.filePath(QStringLiteral("bench.db")), &error);
    if (!db) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    SystemClock clock;
    const CreatedKey key =
        ApiKeyService(*db, clock).create(QStringLiteral("shop"), QStringLiteral("bench"), Mode::Test, Scope::Admin);
    const qint64 account = *AccountRepository(*db).findAccount(QStringLiteral("shop"));
    WebhookEndpoint endpoint;
    endpoint.accountId = account;
    endpoint.url = QStringLiteral("http://127.0.0.1:%1/hook").arg(receiver->port());
    endpoint.password = QStringLiteral("bench");
    endpoint.secret = WebhookSigner::newSecret();
    WebhookEndpointRepository(*db).save(endpoint);

    ServerOptions options;
    options.port = 0;
    options.settleDelayMs = 200;
    options.dataDir = dir.path();
    const OperatorCatalog catalog = OperatorCatalog::builtIn();
    ApiServer server(*db, catalog, clock, options);
    if (!server.listen(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("webhook_bench: SQLite (WAL, synchronous=FULL) in %s, %d events, %d sales\n", qPrintable(dir.path()),
                events, sales);

    // 1. Throughput.
    {
        const qint64 now = clock.nowMs();
        WriteTransaction transaction(*db);
        WebhookOutboxRepository outbox(*db);
        for (int i = 1; i <= events; ++i) {
            WebhookEvent event;
            event.accountId = account;
            event.eventType = QStringLiteral("event.mobile_recharge");
            event.payload = QByteArray(R"({"entity":"mobile_recharge","transaction_id":)") + QByteArray::number(i) +
                            R"(,"transaction_status":"SUCCESS","operator":"Jio","type":"MOBILE","number":"9876543210",)"
                            R"("bill_amount":"₹249.00","discount":"₹3.74","paid":"₹245.26","reference_id":"",)"
                            R"("datetime":"2024-01-01 10:00:00"})";
            event.nextAttemptAtMs = now;
            event.createdAtMs = now;
            outbox.insertEvent(event);
        }
        transaction.commit();
    }
    if (!waitUntil([&] { return receiver->count() == events; }, 600'000)) {
        std::fprintf(stderr, "only %lld of %d events arrived\n", qlonglong(receiver->count()), events);
        return 1;
    }
    {
        const QHash<qint64, qint64> got = receiver->received();
        const auto [first, last] = std::minmax_element(got.cbegin(), got.cend());
        const double seconds = double(*last - *first) / 1e6;
        std::printf("throughput: %d deliveries in %.2f s = %.0f deliveries/s (first to last receipt)\n", events,
                    seconds, double(events - 1) / seconds);
    }
    waitUntil([&] { return WebhookOutboxRepository(*db).countEvents(WebhookEventStatus::Pending) == 0; }, 60'000);
    {
        QSqlQuery &q =
            db->run(QStringLiteral("SELECT AVG(latency_ms), MAX(latency_ms), COUNT(*) FROM webhook_attempts"));
        if (q.next())
            std::printf("  attempt HTTP round trip: mean %.1f ms, max %lld ms over %lld attempts\n",
                        q.value(0).toDouble(), q.value(1).toLongLong(), q.value(2).toLongLong());
        q.finish();
    }
    // Let the last outcomes be written before the next phase.
    waitUntil([&] { return WebhookOutboxRepository(*db).countEvents(WebhookEventStatus::Pending) == 0; }, 60'000);
    receiver->clear();

    // 2. Latency from the status change to the receipt.
    QHash<qint64, qint64> settledAt;
    QObject::connect(&server.settlements(), &SettlementService::settled, &app,
                     [&settledAt](qint64 id) { settledAt.insert(id, nowUs()); });
    QNetworkAccessManager network;
    QUrl saleUrl = server.url();
    saleUrl.setPath(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"));
    int answered = 0;
    // Spread the sales over time (a busy counter, not a burst): one every 10 ms.
    QTimer pacer;
    int sent = 0;
    QObject::connect(&pacer, &QTimer::timeout, &app, [&] {
        if (sent == sales) {
            pacer.stop();
            return;
        }
        QNetworkRequest request(saleUrl);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        request.setRawHeader("Authorization", HttpClient::basic(key.keyId, key.secret));
        const QByteArray body = QByteArray(R"({"phone_number":"9)") + QByteArray::number(sent).rightJustified(5, '0') +
                                R"(1111","amount":10,"operator_code":"RJ"})";
        QNetworkReply *reply = network.post(request, body);
        QObject::connect(reply, &QNetworkReply::finished, &app, [reply, &answered] {
            ++answered;
            reply->deleteLater();
        });
        ++sent;
    });
    pacer.start(10);
    if (!waitUntil([&] { return answered == sales && receiver->count() == sales; }, 600'000)) {
        std::fprintf(stderr, "latency phase: %d answered, %lld received of %d\n", answered,
                     qlonglong(receiver->count()), sales);
        return 1;
    }
    QList<double> latencies;
    const QHash<qint64, qint64> got = receiver->received();
    for (auto it = got.cbegin(); it != got.cend(); ++it) {
        if (settledAt.contains(it.key()))
            latencies.append(double(it.value() - settledAt.value(it.key())) / 1000.0);
    }
    std::printf(
        "latency (status change committed -> receipt), %lld sales at 100/s: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
        qlonglong(latencies.size()), percentile(latencies, 0.5), percentile(latencies, 0.99),
        percentile(latencies, 1.0));

    QMetaObject::invokeMethod(receiver, &QObject::deleteLater);
    receiverThread.quit();
    receiverThread.wait();
    return 0;
}

#include "webhookbench.moc"

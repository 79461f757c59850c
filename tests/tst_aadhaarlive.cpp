#include "aadhaartestdata.h"
#include "clock.h"
#include "privacyscan.h"
#include "support/faultproxy.h"
#include "support/specaggregator.h"
#include "support/testserver.h"
#include "teststore.h"

#include <QBuffer>
#include <QFile>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QImage>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTest>

#include <memory>

using AadhaarTestData::aadhaarWith;
using AadhaarTestData::wrong;

namespace {

/// An upstream whose initiate names its captcha at `captchaLocation` (a path or a URL) and which serves the image at
/// /media/captcha-1.png on its own host, counting the fetches.
class CaptchaStub
{
public:
    CaptchaStub()
    {
        QImage image(40, 20, QImage::Format_RGB32);
        image.fill(Qt::white);
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        m_http.route(QStringLiteral("/api/v1/uidai/aadhaar-authentication/initiate-transaction"),
                     QHttpServerRequest::Method::Get, [this] {
                         const QJsonObject data{{QStringLiteral("transaction_id"), 4242},
                                                {QStringLiteral("entity"), QStringLiteral("aadhaar_authentication")},
                                                {QStringLiteral("status"), QStringLiteral("CAPTCHA_GENERATED")},
                                                {QStringLiteral("msg"), QStringLiteral("Captcha generated")},
                                                {QStringLiteral("captcha"), captchaLocation}};
                         return QHttpServerResponse(QJsonObject{{QStringLiteral("data"), data}});
                     });
        m_http.route(QStringLiteral("/media/captcha-1.png"), QHttpServerRequest::Method::Get,
                     [this](const QHttpServerRequest &request) {
                         ++captchaFetches;
                         lastAuthorization = request.value("Authorization");
                         return QHttpServerResponse("image/png", png);
                     });
        m_port = m_http.listen(QHostAddress::LocalHost, 0);
    }

    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m_port); }
    quint16 port() const { return m_port; }

    QString captchaLocation;
    QByteArray png;
    int captchaFetches = 0;
    QByteArray lastAuthorization;

private:
    QHttpServer m_http;
    quint16 m_port = 0;
};

} // namespace

/// Live Aadhaar OTP through an upstream (issue 13), in one process: a distributor (an ordinary server whose
/// account "shop" has a TEST pos key, so its Aadhaar sandbox answers) and a shop whose upstream is the distributor.
/// The clerk's steps go to the shop with its LIVE pos key; the captcha answer and the OTP are read from the
/// distributor's sandbox with the distributor-side admin key, as a resident would read them off the image and the SMS.
class TestAadhaarLive : public QObject
{
    Q_OBJECT

private:
    static constexpr qint64 kMinute = 60 * 1000;
    static constexpr const char *kBase = "/api/v1/uidai/aadhaar-authentication";

    ManualClock m_clock{QDateTime(QDate(2025, 1, 15), QTime(10, 0), Qt::UTC)};
    std::unique_ptr<TestServer> m_distributor;
    std::unique_ptr<TestServer> m_shop;
    CreatedKey m_distributorKey; ///< the shop's key at the distributor (test pos)
    QByteArray m_shopLivePos;

    static qint64 scalar(TestServer &server, const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = server.db().run(sql, values);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }

    HttpResult configure(const QString &baseUrl)
    {
        return m_shop->http().send("PUT", m_shop->url(QStringLiteral("/api/v1/upstream")),
                                   QJsonDocument(QJsonObject{{QStringLiteral("base_url"), baseUrl},
                                                             {QStringLiteral("key_id"), m_distributorKey.keyId},
                                                             {QStringLiteral("key_secret"), m_distributorKey.secret}})
                                       .toJson(QJsonDocument::Compact),
                                   {{"Authorization", m_shop->liveAdmin()}, {"Content-Type", "application/json"}});
    }

    /// The shop's upstream set to a spec-only aggregator with its dashboard credential (sent verbatim).
    HttpResult configureCredential(const QString &baseUrl, const QString &credential)
    {
        return m_shop->http().send("PUT", m_shop->url(QStringLiteral("/api/v1/upstream")),
                                   QJsonDocument(QJsonObject{{QStringLiteral("base_url"), baseUrl},
                                                             {QStringLiteral("credential"), credential}})
                                       .toJson(QJsonDocument::Compact),
                                   {{"Authorization", m_shop->liveAdmin()}, {"Content-Type", "application/json"}});
    }

    /// An upstream address nobody listens on.
    static QString deadUrl()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return QStringLiteral("http://127.0.0.1:1/api/v1");
        return QStringLiteral("http://127.0.0.1:%1/api/v1").arg(probe.serverPort());
    }

    HttpResult initiate()
    {
        return m_shop->http().get(m_shop->url(QLatin1String(kBase) + QStringLiteral("/initiate-transaction")),
                                  m_shopLivePos);
    }
    qint64 start()
    {
        const HttpResult result = initiate();
        if (result.status != 200)
            qWarning("initiate answered %d: %s", result.status, result.body.constData());
        return result.status == 200 ? result.data().value(QStringLiteral("transaction_id")).toInteger() : 0;
    }
    HttpResult requestOtp(qint64 id, const QString &number, const QString &captcha)
    {
        return m_shop->http().postJson(m_shop->url(QLatin1String(kBase) + QStringLiteral("/request-otp")),
                                       QJsonObject{{QStringLiteral("transaction_id"), id},
                                                   {QStringLiteral("aadhaar_number"), number},
                                                   {QStringLiteral("captcha_value"), captcha}},
                                       m_shopLivePos);
    }
    HttpResult verifyOtp(qint64 id, const QString &otp)
    {
        return m_shop->http().postJson(
            m_shop->url(QLatin1String(kBase) + QStringLiteral("/verify-otp")),
            QJsonObject{{QStringLiteral("transaction_id"), id}, {QStringLiteral("otp_value"), otp}}, m_shopLivePos);
    }

    /// The distributor's transaction behind shop transaction @p id.
    qint64 upstreamIdOf(qint64 id)
    {
        return scalar(*m_shop,
                      QStringLiteral("SELECT upstream_transaction_id FROM aadhaar_upstream_links WHERE transaction_id"
                                     " = ?"),
                      {id});
    }
    /// The distributor's sandbox view of the transaction behind shop transaction @p id.
    QJsonObject sandbox(qint64 id)
    {
        return m_distributor->http()
            .get(m_distributor->url(QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(upstreamIdOf(id))),
                 m_distributor->admin())
            .data();
    }
    QString captchaOf(qint64 id) { return sandbox(id).value(QStringLiteral("captcha_value")).toString(); }
    QString otpOf(qint64 id) { return sandbox(id).value(QStringLiteral("otp_value")).toString(); }
    qint64 sealedNumbers()
    {
        return scalar(*m_shop,
                      QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions WHERE aadhaar_sealed IS NOT NULL"));
    }

    static void checkError(const HttpResult &result, int status, const QString &reason)
    {
        QVERIFY2(result.status == status,
                 qPrintable(QString::number(result.status) + QLatin1Char(' ') + QString::fromUtf8(result.body)));
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), reason);
        QVERIFY(!result.error().value(QStringLiteral("description")).toString().isEmpty());
    }

private slots:
    void init()
    {
        m_distributor = std::make_unique<TestServer>(TestServer::defaultOptions(), &m_clock);
        m_distributorKey = m_distributor->createKeyPair(Mode::Test, Scope::Pos);
        // One flow of the distributor's own first, so its transaction ids differ from the shop's.
        QCOMPARE(m_distributor->http()
                     .get(m_distributor->url(QLatin1String(kBase) + QStringLiteral("/initiate-transaction")),
                          m_distributor->pos())
                     .status,
                 200);
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 5000;
        m_shop = std::make_unique<TestServer>(options, &m_clock);
        m_shopLivePos = m_shop->createKey(Mode::Live, Scope::Pos);
    }

    void cleanup()
    {
        m_shop.reset();
        m_distributor.reset();
    }

    void withoutUpstreamLiveKeysAnswer503WithHowTo()
    {
        checkError(initiate(), 503, QStringLiteral("no_uidai_gateway"));
        QVERIFY(initiate()
                    .error()
                    .value(QStringLiteral("description"))
                    .toString()
                    .contains(QStringLiteral("upstream set")));
        checkError(requestOtp(1, aadhaarWith(QStringLiteral("23456789012")), QStringLiteral("123456")), 503,
                   QStringLiteral("no_uidai_gateway"));
        checkError(verifyOtp(1, QStringLiteral("123456")), 503, QStringLiteral("no_uidai_gateway"));
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions")), 0);
    }

    void liveFlowReachesSuccessThroughTheShop()
    {
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const QString number = aadhaarWith(QStringLiteral("23456789012"));

        const HttpResult initiated = initiate();
        QVERIFY2(initiated.status == 200, initiated.body.constData());
        const QJsonObject first = initiated.data();
        QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("CAPTCHA_GENERATED"));
        QCOMPARE(first.value(QStringLiteral("entity")).toString(), QStringLiteral("aadhaar_authentication"));
        const qint64 id = first.value(QStringLiteral("transaction_id")).toInteger();
        const qint64 upstreamId = upstreamIdOf(id);
        QVERIFY(id > 0);
        QVERIFY2(upstreamId > 0 && upstreamId != id, qPrintable(QStringLiteral("%1 -> %2").arg(id).arg(upstreamId)));

        // The captcha image is the shop's own, relative like the sandbox's, and carries the distributor's bytes.
        const QString captcha = first.value(QStringLiteral("captcha")).toString();
        QVERIFY2(captcha.startsWith(QLatin1String(kBase) + QStringLiteral("/captcha/")), qPrintable(captcha));
        QSqlQuery &q = m_distributor->db().run(
            QStringLiteral("SELECT captcha_token, captcha_png FROM aadhaar_transactions WHERE id = ?"), {upstreamId});
        QVERIFY(q.next());
        const QString upstreamToken = q.value(0).toString();
        const QByteArray upstreamPng = QByteArray::fromBase64(q.value(1).toString().toLatin1());
        q.finish();
        QVERIFY(!captcha.contains(upstreamToken));
        const HttpResult image = m_shop->http().get(m_shop->url(captcha));
        QCOMPARE(image.status, 200);
        QCOMPARE(image.header("Content-Type"), QByteArray("image/png"));
        QVERIFY(!upstreamPng.isEmpty());
        QCOMPARE(image.body, upstreamPng);

        const HttpResult requested = requestOtp(id, number, captchaOf(id));
        QVERIFY2(requested.status == 200, requested.body.constData());
        QCOMPARE(requested.data().value(QStringLiteral("transaction_id")).toInteger(), id);
        QCOMPARE(requested.data().value(QStringLiteral("status")).toString(), QStringLiteral("OTP_GENERATED"));
        QCOMPARE(requested.data().value(QStringLiteral("aadhaar_number")).toString(), number);
        QVERIFY(requested.data().value(QStringLiteral("msg")).toString().contains(QStringLiteral("XXXXXX")));
        QCOMPARE(sealedNumbers(), 1); // kept sealed while the flow needs it

        const QString otp = otpOf(id);
        const HttpResult verified = verifyOtp(id, otp);
        QVERIFY2(verified.status == 200, verified.body.constData());
        QCOMPARE(verified.data().value(QStringLiteral("transaction_id")).toInteger(), id);
        QCOMPARE(verified.data().value(QStringLiteral("status")).toString(), QStringLiteral("AUTHENTICATION_SUCCESS"));
        QCOMPARE(verified.data().value(QStringLiteral("aadhaar_number")).toString(), number);
        QCOMPARE(sealedNumbers(), 0);                                   // erased with the success
        QCOMPARE(m_shop->http().get(m_shop->url(captcha)).status, 404); // the image goes with the flow

        // The upstream says the flow is over, in the shop's words for a finished flow.
        checkError(verifyOtp(id, otp), 409, QStringLiteral("already_authenticated"));
    }

    void failureReasonsPassThrough()
    {
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const QString number = aadhaarWith(QStringLiteral("34567890123"));

        const qint64 id = start();
        QVERIFY(id > 0);
        checkError(verifyOtp(id, QStringLiteral("123456")), 409, QStringLiteral("otp_not_requested"));
        const HttpResult mismatch = requestOtp(id, number, wrong(captchaOf(id)));
        checkError(mismatch, 400, QStringLiteral("captcha_mismatch"));
        QCOMPARE(mismatch.error().value(QStringLiteral("field")).toString(), QStringLiteral("captcha_value"));
        QVERIFY(
            mismatch.error().value(QStringLiteral("description")).toString().contains(QStringLiteral("2 attempts")));
        QCOMPARE(requestOtp(id, number, captchaOf(id)).status, 200);
        const HttpResult throttled = requestOtp(id, number, captchaOf(id)); // a resend at once
        checkError(throttled, 429, QStringLiteral("otp_throttled"));
        QVERIFY2(throttled.header("Retry-After").toInt() > 0, throttled.header("Retry-After").constData());
        checkError(verifyOtp(id, wrong(otpOf(id))), 400, QStringLiteral("otp_mismatch"));
        m_clock.advanceMs(11 * kMinute); // past the distributor's OTP validity, inside the shop's transaction life
        checkError(verifyOtp(id, otpOf(id)), 400, QStringLiteral("otp_expired"));

        const qint64 unlinked = start();
        checkError(requestOtp(unlinked, aadhaarWith(QStringLiteral("23456780000")), captchaOf(unlinked)), 400,
                   QStringLiteral("no_mobile_linked"));
        QCOMPARE(
            scalar(*m_shop,
                   QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions WHERE id = ? AND aadhaar_sealed IS NULL"
                                  " AND status = 'CAPTCHA_GENERATED'"),
                   {unlinked}),
            1);
    }

    // When the upstream says the flow is closed the shop closes its own and erases the sealed number at once.
    void closureAtTheUpstreamErasesTheNumber()
    {
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const qint64 id = start();
        QCOMPARE(requestOtp(id, aadhaarWith(QStringLiteral("56789012345")), captchaOf(id)).status, 200);
        const QString otp = otpOf(id);
        for (int i = 0; i < 3; ++i)
            checkError(verifyOtp(id, wrong(otp)), 400, QStringLiteral("otp_mismatch"));
        QCOMPARE(sealedNumbers(), 1); // the shop cannot tell the third was the last
        checkError(verifyOtp(id, otp), 409, QStringLiteral("transaction_closed"));
        QCOMPARE(sealedNumbers(), 0);
        const HttpResult local = verifyOtp(id, otp); // answered by the shop now
        checkError(local, 409, QStringLiteral("transaction_closed"));
        QVERIFY(local.error().value(QStringLiteral("description")).toString().contains(QStringLiteral("upstream")));
    }

    // Against the stand-in aggregator (issue 26): its captcha lies on its host outside /api/v1 and is fetched and
    // re-served; a wrong captcha answers the clerk 400 with the aggregator's own words, then the right one and the OTP
    // succeed.
    void specAggregatorWordsAndCaptchaOutsideTheApi()
    {
        SpecAggregator aggregator(QStringLiteral("dashboard-credential-aadhaar"));
        QString error;
        QVERIFY2(aggregator.listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        QCOMPARE(
            configureCredential(aggregator.baseUrl().toString(), QStringLiteral("dashboard-credential-aadhaar")).status,
            200);
        const QString number = aadhaarWith(QStringLiteral("67890123456"));

        const HttpResult initiated = initiate();
        QVERIFY2(initiated.status == 200, initiated.body.constData());
        const qint64 id = initiated.data().value(QStringLiteral("transaction_id")).toInteger();
        const qint64 upstreamId = upstreamIdOf(id);
        QVERIFY(upstreamId > 0);
        QCOMPARE(aggregator.requestsTo(QStringLiteral("/captcha/")), 1);
        const QString captcha = initiated.data().value(QStringLiteral("captcha")).toString();
        QVERIFY2(captcha.startsWith(QLatin1String(kBase) + QStringLiteral("/captcha/")), qPrintable(captcha));
        const HttpResult image = m_shop->http().get(m_shop->url(captcha));
        QCOMPARE(image.status, 200);
        QCOMPARE(image.header("Content-Type"), QByteArray("image/png"));
        QVERIFY(image.body.startsWith("\x89PNG\r\n\x1a\n"));

        const QString answer = aggregator.captchaAnswer(upstreamId);
        const HttpResult mismatch = requestOtp(id, number, wrong(answer));
        checkError(mismatch, 400, QStringLiteral("upstream_refused"));
        QCOMPARE(mismatch.error().value(QStringLiteral("code")).toString(), QStringLiteral("BAD_REQUEST_ERROR"));
        QCOMPARE(mismatch.error().value(QStringLiteral("description")).toString(), QStringLiteral("Invalid captcha"));
        QCOMPARE(sealedNumbers(), 0);

        const HttpResult requested = requestOtp(id, number, answer);
        QVERIFY2(requested.status == 200, requested.body.constData());
        QCOMPARE(requested.data().value(QStringLiteral("status")).toString(), QStringLiteral("OTP_GENERATED"));
        QCOMPARE(requested.data().value(QStringLiteral("transaction_id")).toInteger(), id);
        QCOMPARE(sealedNumbers(), 1);

        const HttpResult badOtp = verifyOtp(id, wrong(SpecAggregator::otp()));
        checkError(badOtp, 400, QStringLiteral("upstream_refused"));
        QCOMPARE(badOtp.error().value(QStringLiteral("description")).toString(), QStringLiteral("Invalid OTP"));
        const HttpResult verified = verifyOtp(id, SpecAggregator::otp());
        QVERIFY2(verified.status == 200, verified.body.constData());
        QCOMPARE(verified.data().value(QStringLiteral("status")).toString(), QStringLiteral("AUTHENTICATION_SUCCESS"));
        QCOMPARE(verified.data().value(QStringLiteral("aadhaar_number")).toString(), number);
        QCOMPARE(sealedNumbers(), 0);
    }

    // Where an upstream may put its captcha (issue 26, "Liberal in what it accepts"): a path on its host is fetched
    // with its key; another host is refused with a clear error, never fetched, and nothing is stored.
    void captchaLocations()
    {
        CaptchaStub stub;
        QCOMPARE(configureCredential(stub.baseUrl(), QStringLiteral("stub-credential")).status, 200);

        stub.captchaLocation = QStringLiteral("/media/captcha-1.png");
        const HttpResult initiated = initiate();
        QVERIFY2(initiated.status == 200, initiated.body.constData());
        QCOMPARE(stub.captchaFetches, 1);
        QCOMPARE(stub.lastAuthorization, QByteArray("Basic stub-credential"));
        const HttpResult image =
            m_shop->http().get(m_shop->url(initiated.data().value(QStringLiteral("captcha")).toString()));
        QCOMPARE(image.status, 200);
        QCOMPARE(image.body, stub.png);

        const qint64 stored = scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions"));
        stub.captchaLocation = QStringLiteral("http://localhost:%1/media/captcha-1.png").arg(stub.port());
        const HttpResult elsewhere = initiate();
        checkError(elsewhere, 502, QStringLiteral("upstream_captcha_elsewhere"));
        const QString description = elsewhere.error().value(QStringLiteral("description")).toString();
        QVERIFY2(description.contains(stub.captchaLocation) &&
                     description.contains(QStringLiteral("not on its own host")),
                 qPrintable(description));
        QCOMPARE(stub.captchaFetches, 1); // never fetched: the key goes to the upstream's own host only
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions")), stored);
    }

    void upstreamDownIsAClearErrorAndStoresNothing()
    {
        QCOMPARE(configure(deadUrl()).status, 200);
        const HttpResult r = initiate();
        checkError(r, 503, QStringLiteral("upstream_unreachable"));
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions")), 0);
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM aadhaar_upstream_links")), 0);
    }

    // A failed upstream call is an error in plain words, never a fake success; the flow goes on once it answers.
    void upstreamFaultsMidFlowAreErrorsAndTheFlowGoesOn()
    {
        FaultProxy proxy(QHostAddress::LocalHost, m_distributor->server().port());
        QString error;
        QVERIFY2(proxy.listen(&error), qPrintable(error));
        QCOMPARE(configure(proxy.url().toString() + QStringLiteral("/api/v1")).status, 200);
        const QString number = aadhaarWith(QStringLiteral("45678901234"));
        const qint64 id = start();
        QVERIFY(id > 0);

        proxy.setMode(FaultProxy::Mode::Answer502);
        checkError(requestOtp(id, number, captchaOf(id)), 502, QStringLiteral("upstream_error"));
        QCOMPARE(sealedNumbers(), 0);
        proxy.setMode(FaultProxy::Mode::Pass);
        QCOMPARE(requestOtp(id, number, captchaOf(id)).status, 200);

        proxy.setMode(FaultProxy::Mode::Down);
        checkError(verifyOtp(id, otpOf(id)), 503, QStringLiteral("upstream_unreachable"));
        QCOMPARE(sealedNumbers(), 1);
        proxy.setMode(FaultProxy::Mode::Pass);
        const HttpResult verified = verifyOtp(id, otpOf(id));
        QVERIFY2(verified.status == 200, verified.body.constData());
        QCOMPARE(verified.data().value(QStringLiteral("status")).toString(), QStringLiteral("AUTHENTICATION_SUCCESS"));
        QCOMPARE(sealedNumbers(), 0);
    }

    void upstreamRefusingTheShopsKeyIsAClearError()
    {
        m_distributorKey.secret = QStringLiteral("not-the-secret");
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const HttpResult r = initiate();
        checkError(r, 503, QStringLiteral("upstream_key_refused"));
        QVERIFY(r.error().value(QStringLiteral("description")).toString().contains(QStringLiteral("HTTP 401")));
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions")), 0);
    }

    // The image is copied once at initiate (the terminal never reaches the upstream, and the upstream losing it
    // changes nothing) and expires after the sandbox's captcha validity.
    void captchaIsTheShopsCopyAndExpires()
    {
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const HttpResult initiated = initiate();
        QCOMPARE(initiated.status, 200);
        const QString captcha = initiated.data().value(QStringLiteral("captcha")).toString();
        const qint64 upstreamId = upstreamIdOf(initiated.data().value(QStringLiteral("transaction_id")).toInteger());
        const HttpResult first = m_shop->http().get(m_shop->url(captcha));
        QCOMPARE(first.status, 200);
        m_distributor->db().run(QStringLiteral("UPDATE aadhaar_transactions SET captcha_png = NULL WHERE id = ?"),
                                {upstreamId});
        const HttpResult again = m_shop->http().get(m_shop->url(captcha));
        QCOMPARE(again.status, 200);
        QCOMPARE(again.body, first.body);
        m_clock.advanceMs(10 * kMinute - 1000);
        QCOMPARE(m_shop->http().get(m_shop->url(captcha)).status, 200);
        m_clock.advanceMs(2000);
        QCOMPARE(m_shop->http().get(m_shop->url(captcha)).status, 404);
    }

    void fullNumberNeverStoredOrLogged()
    {
        const LogCapture capture;
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const QString number = aadhaarWith(QStringLiteral("98765432101"));

        const qint64 done = start();
        QCOMPARE(requestOtp(done, number, wrong(captchaOf(done))).status, 400);
        QCOMPARE(requestOtp(done, number, captchaOf(done)).status, 200);
        QCOMPARE(verifyOtp(done, wrong(otpOf(done))).status, 400);
        QCOMPARE(verifyOtp(done, otpOf(done)).status, 200);

        m_clock.advanceMs(2 * kMinute);
        const qint64 abandoned = start();
        QCOMPARE(requestOtp(abandoned, number, captchaOf(abandoned)).status, 200);
        QCOMPARE(sealedNumbers(), 1);
        m_clock.advanceMs(31 * kMinute);
        QVERIFY(start() > 0); // sweeps the abandoned flow
        QCOMPARE(sealedNumbers(), 0);

        const QStringList cells = m_shop->cellsContaining(number);
        QVERIFY2(cells.isEmpty(), qPrintable(cells.join(QStringLiteral(", "))));
        QStringList found = filesContaining(m_shop->dataDir(), number);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral(", "))));
        if (!TestStore::postgres())
            QVERIFY(QFile::exists(m_shop->dataDir() + QStringLiteral("/rechargedesk.db-wal")));
        m_shop->stop(); // SQLite: checkpoint the WAL into the database file and scan again
        found = filesContaining(m_shop->dataDir(), number);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral(", "))));

        const QString log = capture.text();
        QVERIFY2(log.contains(QStringLiteral("XXXX XXXX ") + number.right(4)),
                 "the capture saw no Aadhaar log line, so it proves nothing");
        QVERIFY(!log.contains(number));
    }
};

QTEST_MAIN(TestAadhaarLive)
#include "tst_aadhaarlive.moc"

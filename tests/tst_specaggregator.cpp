// The stand-in aggregator of issue 26 (tests/support/specaggregator.h) over real HTTP: it speaks
// ../shared/spec/api-v1.md as written and nothing more — an opaque credential compared verbatim, the spec's records
// and webhook body, no status check, no de-duplication of reference_id, errors in its own format — so the process
// tests that sell through it (tst_specupstream) test a shop against what a real aggregator promises.
#include "httpclient.h"
#include "rawhttpclient.h"
#include "specaggregator.h"
#include "testreceiver.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>
#include <QUuid>

namespace {

const QString kCredential = QStringLiteral("ak_live_7Hq2xW9pLm3vR8tK");
const QString kPassword = QStringLiteral("hook-password-42");
const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kDth = QStringLiteral("/api/v1/recharge/dth/initiate-transaction");
const QString kVoucher = QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
const QString kAadhaar = QStringLiteral("/api/v1/uidai/aadhaar-authentication/");
constexpr int kWaitMs = 10'000;

QString newReference()
{
    return QStringLiteral("ref-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QJsonObject mobile(const QString &number, const QString &reference, const QJsonValue &amount = QStringLiteral("249"))
{
    return {{QStringLiteral("phone_number"), number},
            {QStringLiteral("amount"), amount},
            {QStringLiteral("operator_code"), QStringLiteral("AT")},
            {QStringLiteral("reference_id"), reference}};
}

/// The aggregator's own error body.
QJsonObject ownError(const char *status, const char *message)
{
    return {{QStringLiteral("status"), QLatin1String(status)}, {QStringLiteral("message"), QLatin1String(message)}};
}

QString statusOf(const QJsonObject &record)
{
    return record.value(QStringLiteral("transaction_status")).toString();
}

} // namespace

class TestSpecAggregator final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SpecAggregator> m_aggregator;
    std::unique_ptr<TestReceiver> m_receiver;
    HttpClient m_http;
    const QByteArray m_authorization = "Basic " + kCredential.toUtf8();

    HttpResult post(const QString &path, const QJsonObject &body, const QByteArray &authorization)
    {
        return m_http.postJson(m_aggregator->url(path), body, authorization);
    }
    HttpResult post(const QString &path, const QJsonObject &body) { return post(path, body, m_authorization); }

    /// Writes a mobile sale request on a raw connection (whose answer, or its absence, the test then reads).
    void sendRaw(RawHttpClient &client, const QString &number, const QString &reference)
    {
        const QByteArray body = QJsonDocument(mobile(number, reference)).toJson(QJsonDocument::Compact);
        client.send(QByteArray(
            rawRequestHead("POST", kMobile.toLatin1(), body.size(), "application/json", m_authorization) + body));
    }

    /// The requests the receiver got whose payload names this reference_id.
    QList<QJsonObject> hooksFor(const QString &reference) const
    {
        QList<QJsonObject> hooks;
        for (const ReceivedHook &hook : m_receiver->requests()) {
            const QJsonObject body = QJsonDocument::fromJson(hook.body).object();
            const QJsonObject payload = body.value(QStringLiteral("data"))[QStringLiteral("payload")].toObject();
            if (payload.value(QStringLiteral("reference_id")).toString() == reference)
                hooks.append(body);
        }
        return hooks;
    }

private slots:
    void initTestCase()
    {
        m_aggregator = std::make_unique<SpecAggregator>(kCredential);
        QString error;
        QVERIFY2(m_aggregator->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        m_receiver = std::make_unique<TestReceiver>();
        m_aggregator->setWebhook(m_receiver->url(QStringLiteral("/hooks/upstream")), kPassword);
    }

    void init()
    {
        m_aggregator->setOutcome(std::nullopt);
        m_aggregator->setAutomaticWebhooks(true);
        m_aggregator->setWebhookDelayMs(300);
        m_aggregator->setLateAnswerMs(4000);
    }

    void cleanupTestCase()
    {
        m_aggregator.reset();
        m_receiver.reset();
    }

    // Authorization is "Basic " and the dashboard's credential, compared verbatim: no base64 of id:secret, no other
    // scheme; a wrong one answers 401 in the aggregator's own format, and no sale is made.
    void credentialComparedVerbatim_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<int>("status");
        QTest::newRow("Basic <credential>") << QByteArray("Basic " + kCredential.toUtf8()) << 200;
        QTest::newRow("Basic base64(credential)") << QByteArray("Basic " + kCredential.toUtf8().toBase64()) << 401;
        QTest::newRow("Basic base64(id:secret)") << HttpClient::basic(QStringLiteral("ak_live"), kCredential) << 401;
        QTest::newRow("Bearer <credential>") << QByteArray("Bearer " + kCredential.toUtf8()) << 401;
        QTest::newRow("the credential less its last character")
            << QByteArray("Basic " + kCredential.chopped(1).toUtf8()) << 401;
        QTest::newRow("another credential") << QByteArray("Basic ak_live_somebody_else") << 401;
        QTest::newRow("none") << QByteArray() << 401;
    }
    void credentialComparedVerbatim()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(int, status);
        const QString reference = newReference();
        const HttpResult result = post(kMobile, mobile(QStringLiteral("9876543210"), reference), authorization);
        QCOMPARE(result.status, status);
        QCOMPARE(m_aggregator->requestsFor(reference), 1);
        if (status == 200) {
            QCOMPARE(m_aggregator->salesFor(reference), 1);
            return;
        }
        QCOMPARE(result.json(), ownError("error", "Invalid API key"));
        QCOMPARE(m_aggregator->salesFor(reference), 0);
    }

    // A sale's record has exactly the spec's fields for its kind, in the `data` envelope.
    void recordsHaveTheSpecsFields_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<QString>("entity");
        const QStringList common{QStringLiteral("entity"),       QStringLiteral("transaction_id"),
                                 QStringLiteral("operator"),     QStringLiteral("type"),
                                 QStringLiteral("bill_amount"),  QStringLiteral("discount"),
                                 QStringLiteral("paid"),         QStringLiteral("transaction_status"),
                                 QStringLiteral("reference_id"), QStringLiteral("datetime")};
        QTest::newRow("mobile, amount as a string")
            << kMobile << mobile(QStringLiteral("9876543210"), QString())
            << common + QStringList{QStringLiteral("number")} << QStringLiteral("mobile_recharge");
        QTest::newRow("mobile, amount as a number")
            << kMobile << mobile(QStringLiteral("9876543210"), QString(), 249)
            << common + QStringList{QStringLiteral("number")} << QStringLiteral("mobile_recharge");
        QTest::newRow("DTH") << kDth
                             << QJsonObject{{QStringLiteral("number"), QStringLiteral("1012345678")},
                                            {QStringLiteral("amount"), QStringLiteral("249")},
                                            {QStringLiteral("operator_code"), QStringLiteral("TS")}}
                             << common + QStringList{QStringLiteral("number")} << QStringLiteral("dth_recharge");
        QTest::newRow("voucher") << kVoucher
                                 << QJsonObject{{QStringLiteral("amount"), 249},
                                                {QStringLiteral("customer_email"), QStringLiteral("a@example.com")}}
                                 << common +
                                        QStringList{QStringLiteral("customer_email"), QStringLiteral("redeem_code")}
                                 << QStringLiteral("appstore_voucher");
    }
    void recordsHaveTheSpecsFields()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QStringList, fields);
        QFETCH(QString, entity);
        const QString reference = newReference();
        body.insert(QStringLiteral("reference_id"), reference);
        const HttpResult result = post(path, body);
        QCOMPARE(result.status, 200);
        QCOMPARE(result.json().keys(), QStringList{QStringLiteral("data")});
        const QJsonObject record = result.data();
        QStringList keys = record.keys();
        keys.sort();
        fields.sort();
        QCOMPARE(keys, fields);
        QCOMPARE(record.value(QStringLiteral("entity")).toString(), entity);
        QVERIFY(record.value(QStringLiteral("transaction_id")).isDouble());
        QCOMPARE(statusOf(record), QStringLiteral("SUCCESS"));
        QCOMPARE(record.value(QStringLiteral("reference_id")).toString(), reference);
        const QString rupee = QString(QChar(0x20B9));
        QCOMPARE(record.value(QStringLiteral("bill_amount")).toString(), rupee + QStringLiteral("249.00"));
        QCOMPARE(record.value(QStringLiteral("discount")).toString(), rupee + QStringLiteral("4.98"));
        QCOMPARE(record.value(QStringLiteral("paid")).toString(), rupee + QStringLiteral("244.02"));
        static const QRegularExpression datetime(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$"));
        QVERIFY(datetime.match(record.value(QStringLiteral("datetime")).toString()).hasMatch());
        if (record.contains(QStringLiteral("redeem_code"))) {
            static const QRegularExpression code(QStringLiteral("^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$"));
            QVERIFY(code.match(record.value(QStringLiteral("redeem_code")).toString()).hasMatch());
        }
        QCOMPARE(m_aggregator->record(reference), record);
    }

    // The spec's limits and fields: a refusal in the aggregator's own format, and no sale.
    void badRequestsInItsOwnFormat_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("nine digits") << mobile(QStringLiteral("987654321"), QString())
                                     << QStringLiteral("Invalid phone_number");
        QTest::newRow("over AT's 2500") << mobile(QStringLiteral("9876543210"), QString(), 2501)
                                        << QStringLiteral("Amount should be between 10 and 2500");
        QTest::newRow("not an amount") << mobile(QStringLiteral("9876543210"), QString(), QStringLiteral("12a"))
                                       << QStringLiteral("Invalid amount");
        QJsonObject unknownOperator = mobile(QStringLiteral("9876543210"), QString());
        unknownOperator.insert(QStringLiteral("operator_code"), QStringLiteral("XX"));
        QTest::newRow("unknown operator") << unknownOperator << QStringLiteral("Invalid operator_code");
    }
    void badRequestsInItsOwnFormat()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, message);
        const int before = m_aggregator->totalSales();
        const HttpResult result = post(kMobile, body);
        QCOMPARE(result.status, 400);
        QCOMPARE(result.json(), (QJsonObject{{QStringLiteral("status"), QStringLiteral("FAILURE")},
                                             {QStringLiteral("message"), message}}));
        QCOMPARE(m_aggregator->totalSales(), before);
    }

    // The outcomes a test chooses by the number's last four digits, or for every sale.
    void outcomes_data()
    {
        QTest::addColumn<QString>("number");
        QTest::addColumn<int>("override"); // -1: by the number
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("first");
        QTest::addColumn<int>("sales");
        const int none = -1;
        QTest::newRow("plain: SUCCESS") << QStringLiteral("9876543210") << none << 200 << QStringLiteral("SUCCESS")
                                        << 1;
        QTest::newRow("0000: FAILED") << QStringLiteral("9876540000") << none << 200 << QStringLiteral("FAILED") << 1;
        QTest::newRow("1111: PENDING") << QStringLiteral("9876541111") << none << 200 << QStringLiteral("PENDING") << 1;
        QTest::newRow("2222: PENDING") << QStringLiteral("9876542222") << none << 200 << QStringLiteral("PENDING") << 1;
        QTest::newRow("4000: refused") << QStringLiteral("9876544000") << none << 400 << QString() << 0;
        QTest::newRow("5030: 503") << QStringLiteral("9876545030") << none << 503 << QString() << 0;
        QTest::newRow("per test: FAILED") << QStringLiteral("9876543210") << int(SpecAggregator::Outcome::Failed) << 200
                                          << QStringLiteral("FAILED") << 1;
        QTest::newRow("per test: refused")
            << QStringLiteral("9876541111") << int(SpecAggregator::Outcome::Refused) << 400 << QString() << 0;
    }
    void outcomes()
    {
        QFETCH(QString, number);
        QFETCH(int, override);
        QFETCH(int, status);
        QFETCH(QString, first);
        QFETCH(int, sales);
        if (override >= 0)
            m_aggregator->setOutcome(SpecAggregator::Outcome(override));
        const QString reference = newReference();
        const HttpResult result = post(kMobile, mobile(number, reference));
        QCOMPARE(result.status, status);
        QCOMPARE(m_aggregator->requestsFor(reference), 1);
        QCOMPARE(m_aggregator->salesFor(reference), sales);
        if (status == 200)
            QCOMPARE(statusOf(result.data()), first);
        else if (status == 400)
            QCOMPARE(result.json(), ownError("FAILURE", "Recharge not allowed for this number"));
        else {
            QVERIFY(result.header("Content-Type").startsWith("text/html"));
            QVERIFY(result.body.contains("503 Service Temporarily Unavailable"));
            QVERIFY(result.json().isEmpty());
        }
    }

    // Every request is a new sale: the same reference_id twice is two sales (two recharges paid for).
    void noDeduplicationOfReferenceId()
    {
        const QString reference = newReference();
        const int before = m_aggregator->totalSales();
        const HttpResult one = post(kMobile, mobile(QStringLiteral("9876543210"), reference));
        const HttpResult two = post(kMobile, mobile(QStringLiteral("9876543210"), reference));
        QCOMPARE(one.status, 200);
        QCOMPARE(two.status, 200);
        QVERIFY(one.data().value(QStringLiteral("transaction_id")) !=
                two.data().value(QStringLiteral("transaction_id")));
        QCOMPARE(m_aggregator->salesFor(reference), 2);
        QCOMPARE(m_aggregator->requestsFor(reference), 2);
        QCOMPARE(m_aggregator->totalSales(), before + 2);
        QCOMPARE(m_aggregator->records().size(), before + 2);
    }

    // No status check, no OpenAPI document, nothing outside the spec: 404 in its own format, with or without a key.
    void nothingBeyondTheSpec_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("status check") << QStringLiteral("/api/v1/transactions/880001");
        QTest::newRow("transactions") << QStringLiteral("/api/v1/transactions");
        QTest::newRow("openapi.json") << QStringLiteral("/api/v1/openapi.json");
        QTest::newRow("openapi.json at the root") << QStringLiteral("/openapi.json");
        QTest::newRow("balance") << QStringLiteral("/api/v1/wallet");
        QTest::newRow("initiate by GET") << kMobile;
    }
    void nothingBeyondTheSpec()
    {
        QFETCH(QString, path);
        const int before = m_aggregator->requestsTo(path);
        for (const QByteArray &authorization : {m_authorization, QByteArray()}) {
            const HttpResult result = m_http.get(m_aggregator->url(path), authorization);
            QCOMPARE(result.status, 404);
            QCOMPARE(result.json(), ownError("error", "Not found"));
        }
        QCOMPARE(m_aggregator->requestsTo(path), before + 2);
    }

    // A PENDING sale ends later and its webhook is the spec's body: data.entity "webhook", the event of its kind,
    // the plain webhook_password, the record as payload; no signature headers.
    void pendingEndsByWebhook_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("end");
        QTest::newRow("mobile 1111") << kMobile << mobile(QStringLiteral("9876541111"), QString())
                                     << QStringLiteral("event.mobile_recharge") << QStringLiteral("SUCCESS");
        QTest::newRow("mobile 2222") << kMobile << mobile(QStringLiteral("9876542222"), QString())
                                     << QStringLiteral("event.mobile_recharge") << QStringLiteral("FAILED");
        QTest::newRow("DTH 1111") << kDth
                                  << QJsonObject{{QStringLiteral("number"), QStringLiteral("1012341111")},
                                                 {QStringLiteral("amount"), 300},
                                                 {QStringLiteral("operator_code"), QStringLiteral("DT")}}
                                  << QStringLiteral("event.dth_recharge") << QStringLiteral("SUCCESS");
        QTest::newRow("voucher, PENDING per test")
            << kVoucher << QJsonObject{{QStringLiteral("amount"), 500}} << QStringLiteral("event.appstore_voucher")
            << QStringLiteral("SUCCESS");
    }
    void pendingEndsByWebhook()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QString, event);
        QFETCH(QString, end);
        if (path == kVoucher)
            m_aggregator->setOutcome(SpecAggregator::Outcome::PendingThenSuccess);
        const QString reference = newReference();
        body.insert(QStringLiteral("reference_id"), reference);
        const HttpResult result = post(path, body);
        QCOMPARE(result.status, 200);
        QCOMPARE(statusOf(result.data()), QStringLiteral("PENDING"));
        QTRY_COMPARE_WITH_TIMEOUT(hooksFor(reference).size(), 1, kWaitMs);

        const QJsonObject hook = hooksFor(reference).constFirst();
        QCOMPARE(hook.keys(), QStringList{QStringLiteral("data")});
        const QJsonObject data = hook.value(QStringLiteral("data")).toObject();
        QStringList keys = data.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{QStringLiteral("entity"), QStringLiteral("payload"),
                                    QStringLiteral("webhook_event"), QStringLiteral("webhook_password")}));
        QCOMPARE(data.value(QStringLiteral("entity")).toString(), QStringLiteral("webhook"));
        QCOMPARE(data.value(QStringLiteral("webhook_event")).toString(), event);
        QCOMPARE(data.value(QStringLiteral("webhook_password")).toString(), kPassword);
        const QJsonObject payload = data.value(QStringLiteral("payload")).toObject();
        QCOMPARE(statusOf(payload), end);
        QCOMPARE(payload.value(QStringLiteral("transaction_id")),
                 result.data().value(QStringLiteral("transaction_id")));
        QCOMPARE(payload, m_aggregator->record(reference));
        if (path == kVoucher)
            QVERIFY(!payload.value(QStringLiteral("redeem_code")).toString().isEmpty());

        const ReceivedHook &received = m_receiver->requests().constLast();
        QCOMPARE(received.path, QByteArray("/hooks/upstream"));
        QVERIFY(received.contentType.startsWith("application/json"));
        QVERIFY(received.webhookId.isEmpty());
        QVERIFY(received.signature.isEmpty());
        QVERIFY(received.timestamp.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!m_aggregator->webhooks().isEmpty() &&
                                     m_aggregator->webhooks().constLast().referenceId == reference,
                                 kWaitMs);
        QCOMPARE(m_aggregator->webhooks().constLast().httpStatus, 200);
    }

    // A lost webhook: the sale ends at the aggregator and nothing is sent; sendWebhook() sends one on demand, also to
    // report FAILED for a sale that was SUCCESS (a reversal).
    void lostWebhookThenOnDemand()
    {
        m_aggregator->setAutomaticWebhooks(false);
        const QString reference = newReference();
        const HttpResult result = post(kMobile, mobile(QStringLiteral("9876541111"), reference));
        QCOMPARE(statusOf(result.data()), QStringLiteral("PENDING"));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(m_aggregator->record(reference)), QStringLiteral("SUCCESS"), kWaitMs);
        QVERIFY(!m_aggregator->sendWebhook(QStringLiteral("no-such-reference"), QStringLiteral("FAILED")));

        QVERIFY(m_aggregator->sendWebhook(reference, QStringLiteral("SUCCESS")));
        QTRY_COMPARE_WITH_TIMEOUT(hooksFor(reference).size(), 1, kWaitMs); // the ending itself sent none
        QVERIFY(m_aggregator->sendWebhook(reference, QStringLiteral("FAILED")));
        QTRY_COMPARE_WITH_TIMEOUT(hooksFor(reference).size(), 2, kWaitMs);
        const QJsonObject reversal = hooksFor(reference).constLast();
        QCOMPARE(statusOf(reversal.value(QStringLiteral("data"))[QStringLiteral("payload")].toObject()),
                 QStringLiteral("FAILED"));
        QCOMPARE(statusOf(m_aggregator->record(reference)), QStringLiteral("FAILED"));
        QCOMPARE(m_aggregator->salesFor(reference), 1);
    }

    // Sold but answered late: the sale is made when the request arrives, the answer comes lateAnswerMs later.
    void soldButAnsweredLate()
    {
        m_aggregator->setLateAnswerMs(800);
        const QString reference = newReference();
        RawHttpClient client(quint16(m_aggregator->url().port()));
        QVERIFY(client.waitForConnected());
        sendRaw(client, QStringLiteral("9876547777"), reference);
        QTRY_COMPARE_WITH_TIMEOUT(m_aggregator->salesFor(reference), 1, kWaitMs);
        QVERIFY(!client.hasCompleteResponse()); // sold, not answered yet
        RawHttpResponse response;
        QVERIFY(client.waitForResponse(response));
        QCOMPARE(response.status, 200);
        QCOMPARE(statusOf(QJsonDocument::fromJson(response.body)[QStringLiteral("data")].toObject()),
                 QStringLiteral("SUCCESS"));
        QCOMPARE(m_aggregator->salesFor(reference), 1);
    }

    // A client that gives up before the late answer: the sale stands, the answer is dropped (and counted).
    void lateAnswerToAClientThatLeft()
    {
        m_aggregator->setLateAnswerMs(300);
        const int dropped = m_aggregator->lateAnswersDropped();
        const QString reference = newReference();
        {
            RawHttpClient client(quint16(m_aggregator->url().port()));
            QVERIFY(client.waitForConnected());
            sendRaw(client, QStringLiteral("9876547777"), reference);
            QTRY_COMPARE_WITH_TIMEOUT(m_aggregator->salesFor(reference), 1, kWaitMs);
            client.socket().abort();
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_aggregator->lateAnswersDropped(), dropped + 1, kWaitMs);
        QCOMPARE(statusOf(m_aggregator->record(reference)), QStringLiteral("SUCCESS"));
    }

    // Sold, then the connection cut: no answer at all, the sale stands.
    void soldThenCut()
    {
        const QString reference = newReference();
        RawHttpClient client(quint16(m_aggregator->url().port()));
        QVERIFY(client.waitForConnected());
        sendRaw(client, QStringLiteral("9876548888"), reference);
        QVERIFY(client.waitForServerClose());
        QVERIFY(client.received().isEmpty());
        QCOMPARE(m_aggregator->salesFor(reference), 1);
        QCOMPARE(statusOf(m_aggregator->record(reference)), QStringLiteral("SUCCESS"));
    }

    // The three Aadhaar steps; the captcha is an absolute URL on the aggregator's host outside /api/v1 serving a PNG;
    // a wrong captcha or OTP answers 400 in its own format and the step may be tried again.
    void aadhaarFlow()
    {
        const HttpResult initiated =
            m_http.get(m_aggregator->url(kAadhaar + QStringLiteral("initiate-transaction")), m_authorization);
        QCOMPARE(initiated.status, 200);
        const QJsonObject step1 = initiated.data();
        QCOMPARE(step1.value(QStringLiteral("entity")).toString(), QStringLiteral("aadhaar_authentication"));
        QCOMPARE(step1.value(QStringLiteral("status")).toString(), QStringLiteral("CAPTCHA_GENERATED"));
        QVERIFY(!step1.value(QStringLiteral("msg")).toString().isEmpty());
        const qint64 id = step1.value(QStringLiteral("transaction_id")).toInteger();
        QVERIFY(id > 0);
        const QUrl captcha(step1.value(QStringLiteral("captcha")).toString());
        QCOMPARE(captcha.scheme(), QStringLiteral("http"));
        QCOMPARE(captcha.host(), m_aggregator->url().host());
        QCOMPARE(captcha.port(), m_aggregator->url().port());
        QVERIFY2(!captcha.path().startsWith(QLatin1String("/api/v1")), qPrintable(captcha.toString()));

        const HttpResult image = m_http.get(captcha); // an <img> sends no credential
        QCOMPARE(image.status, 200);
        QCOMPARE(image.header("Content-Type"), QByteArray("image/png"));
        QVERIFY(!QImage::fromData(image.body, "PNG").isNull());

        const QUrl requestOtp = m_aggregator->url(kAadhaar + QStringLiteral("request-otp"));
        const QString answer = m_aggregator->captchaAnswer(id);
        QJsonObject otpBody{{QStringLiteral("transaction_id"), QString::number(id)}, // as the spec's samples send it
                            {QStringLiteral("aadhaar_number"), QStringLiteral("999941057058")},
                            {QStringLiteral("captcha_value"), QString(answer + QLatin1Char('9'))}};
        const HttpResult wrong = m_http.postJson(requestOtp, otpBody, m_authorization);
        QCOMPARE(wrong.status, 400);
        QCOMPARE(wrong.json(), ownError("FAILURE", "Invalid captcha"));
        otpBody.insert(QStringLiteral("captcha_value"), answer);
        const HttpResult sent = m_http.postJson(requestOtp, otpBody, m_authorization);
        QCOMPARE(sent.status, 200);
        QCOMPARE(sent.data().value(QStringLiteral("status")).toString(), QStringLiteral("OTP_GENERATED"));
        QCOMPARE(sent.data().value(QStringLiteral("aadhaar_number")).toString(), QStringLiteral("999941057058"));
        QCOMPARE(sent.data().value(QStringLiteral("transaction_id")).toInteger(), id);

        const QUrl verifyOtp = m_aggregator->url(kAadhaar + QStringLiteral("verify-otp"));
        QJsonObject verifyBody{{QStringLiteral("transaction_id"), id},
                               {QStringLiteral("otp_value"), QStringLiteral("000000")}};
        QCOMPARE(m_http.postJson(verifyOtp, verifyBody, m_authorization).json(), ownError("FAILURE", "Invalid OTP"));
        verifyBody.insert(QStringLiteral("otp_value"), SpecAggregator::otp());
        const HttpResult verified = m_http.postJson(verifyOtp, verifyBody, m_authorization);
        QCOMPARE(verified.status, 200);
        QCOMPARE(verified.data().value(QStringLiteral("status")).toString(), QStringLiteral("AUTHENTICATION_SUCCESS"));
        // The flow is over: its steps are not answered again.
        QCOMPARE(m_http.postJson(verifyOtp, verifyBody, m_authorization).status, 400);
        QCOMPARE(m_http.get(m_aggregator->url(QStringLiteral("/captcha/nope.png"))).status, 404);
    }

    // Plans: the spec's result shape; plan ids unique only within one operator and circle.
    void plansReusePlanIdsAcrossPairs()
    {
        const QUrl url = m_aggregator->url(QStringLiteral("/api/v1/plans/mobile/prepaid-plans"));
        const auto planIds = [&](const char *operatorCode, const char *circleCode) {
            const HttpResult result = m_http.postJson(url,
                                                      {{QStringLiteral("operator_code"), QLatin1String(operatorCode)},
                                                       {QStringLiteral("circle_code"), QLatin1String(circleCode)}},
                                                      m_authorization);
            QList<qint64> ids;
            const QJsonObject data = result.data();
            if (result.status != 200 || data.value(QStringLiteral("entity")) != QStringLiteral("prepaid_plans"))
                return ids;
            for (const QJsonValue &category : data.value(QStringLiteral("categories")).toArray()) {
                const QJsonArray items = category[QStringLiteral("items")].toArray();
                if (category[QStringLiteral("entity")] != QStringLiteral("collection") ||
                    category[QStringLiteral("count")].toInt() != items.size())
                    return QList<qint64>();
                for (const QJsonValue &plan : items) {
                    if (plan[QStringLiteral("entity")] != QStringLiteral("plan") ||
                        !plan[QStringLiteral("subscriptions")].isArray() || !plan[QStringLiteral("amount")].isDouble())
                        return QList<qint64>();
                    ids.append(plan[QStringLiteral("plan_id")].toInteger());
                }
            }
            return ids;
        };
        const QList<qint64> airtelDelhi = planIds("AT", "DL");
        QVERIFY(!airtelDelhi.isEmpty());
        QCOMPARE(planIds("VI", "MH"), airtelDelhi);
        QCOMPARE(planIds("AT", "KA"), airtelDelhi);
        const HttpResult badCircle = m_http.postJson(url,
                                                     {{QStringLiteral("operator_code"), QStringLiteral("AT")},
                                                      {QStringLiteral("circle_code"), QStringLiteral("ZZ")}},
                                                     m_authorization);
        QCOMPARE(badCircle.status, 400);
        QCOMPARE(badCircle.json(), ownError("FAILURE", "Invalid circle_code"));
        QCOMPARE(m_http.postJson(url, {}, QByteArray("Basic nope")).json(), ownError("error", "Invalid API key"));
    }
};

QTEST_GUILESS_MAIN(TestSpecAggregator)
#include "tst_specaggregator.moc"

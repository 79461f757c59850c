#include "aadhaar/sandboxresidents.h"
#include "aadhaartestdata.h"
#include "clock.h"
#include "privacyscan.h"
#include "testserver.h"
#include "validators.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

namespace {

const QString kBase = QStringLiteral("/api/v1/uidai/aadhaar-authentication");
constexpr qint64 kMinute = 60 * 1000;

using AadhaarTestData::aadhaarWith;

QSet<QString> keysOf(const QJsonObject &object)
{
    const QStringList keys = object.keys();
    return QSet<QString>(keys.begin(), keys.end());
}

QDateTime fixedStart()
{
    return QDateTime(QDate(2025, 1, 15), QTime(10, 0), Qt::UTC);
}

/// Talks the Aadhaar flow to one TestServer as one key.
class Flow
{
public:
    /// Calls with @p key; reads sandbox values with @p sandboxKey (default: the server's test admin key).
    Flow(TestServer &server, QByteArray key, QByteArray sandboxKey = {})
        : m_server(server), m_key(std::move(key)),
          m_sandboxKey(sandboxKey.isEmpty() ? server.admin() : std::move(sandboxKey))
    {}

    HttpResult initiate()
    {
        return m_server.http().get(m_server.url(kBase + QStringLiteral("/initiate-transaction")), m_key);
    }
    /// initiate() that must succeed; returns the transaction id (0 after a failed check).
    qint64 start()
    {
        const HttpResult result = initiate();
        if (result.status != 200)
            qWarning("initiate answered %d: %s", result.status, result.body.constData());
        return result.status == 200 ? result.data().value(QStringLiteral("transaction_id")).toInteger() : 0;
    }
    HttpResult requestOtp(const QJsonValue &id, const QString &number, const QString &captcha)
    {
        return m_server.http().postJson(m_server.url(kBase + QStringLiteral("/request-otp")),
                                        QJsonObject{{QStringLiteral("transaction_id"), id},
                                                    {QStringLiteral("aadhaar_number"), number},
                                                    {QStringLiteral("captcha_value"), captcha}},
                                        m_key);
    }
    HttpResult verifyOtp(const QJsonValue &id, const QString &otp)
    {
        return m_server.http().postJson(
            m_server.url(kBase + QStringLiteral("/verify-otp")),
            QJsonObject{{QStringLiteral("transaction_id"), id}, {QStringLiteral("otp_value"), otp}}, m_key);
    }
    /// The sandbox view of transaction @p id.
    QJsonObject sandbox(qint64 id)
    {
        return m_server.http()
            .get(m_server.url(QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(id)), m_sandboxKey)
            .data();
    }
    QString captchaOf(qint64 id) { return sandbox(id).value(QStringLiteral("captcha_value")).toString(); }
    QString otpOf(qint64 id) { return sandbox(id).value(QStringLiteral("otp_value")).toString(); }
    /// A wrong answer of the same length as @p right.
    static QString wrong(const QString &right) { return AadhaarTestData::wrong(right); }
    /// initiate + request-otp with the right captcha; returns the transaction id (0 on failure).
    qint64 toOtpGenerated(const QString &number)
    {
        const qint64 id = start();
        const HttpResult result = requestOtp(id, number, captchaOf(id));
        if (result.status != 200)
            qWarning("request-otp answered %d: %s", result.status, result.body.constData());
        return result.status == 200 ? id : 0;
    }

private:
    TestServer &m_server;
    QByteArray m_key;
    QByteArray m_sandboxKey;
};

void expectError(const HttpResult &result, int status, const QString &code, const QString &reason,
                 const QString &field = {})
{
    QVERIFY2(result.status == status,
             qPrintable(QString::number(result.status) + QLatin1Char(' ') + QString::fromUtf8(result.body)));
    const QJsonObject error = result.error();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), code);
    QCOMPARE(error.value(QStringLiteral("reason")).toString(), reason);
    if (field.isEmpty())
        QVERIFY(error.value(QStringLiteral("field")).isNull());
    else
        QCOMPARE(error.value(QStringLiteral("field")).toString(), field);
    QVERIFY(!error.value(QStringLiteral("description")).toString().isEmpty());
}

/// The description words and the `attempts_left` of three wrong answers in a row.
QList<std::pair<QString, int>> attemptsLeft()
{
    return {{QStringLiteral("2 attempts left"), 2},
            {QStringLiteral("1 attempt left"), 1},
            {QStringLiteral("no attempts left"), 0}};
}

void expectAttemptsLeft(const HttpResult &result, int count)
{
    const QJsonValue left = result.error().value(QStringLiteral("attempts_left"));
    QVERIFY2(left.isDouble(), result.body.constData());
    QCOMPARE(left.toInteger(), count);
}

QUrl smsUrl(TestServer &server, const QString &query)
{
    QUrl url = server.url(QStringLiteral("/api/v1/sandbox/sms"));
    url.setQuery(query);
    return url;
}

qint64 sealedNumbers(TestServer &server)
{
    QSqlQuery query(server.db().connection());
    if (!query.exec(QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions WHERE aadhaar_sealed IS NOT NULL")) ||
        !query.next())
        return -1;
    return query.value(0).toLongLong();
}

} // namespace

/// The Aadhaar OTP flow of api-v1.md endpoints 1-3 and its sandbox reads, over real HTTP (api-conventions.md,
/// "Aadhaar OTP flow"). Needs a QGuiApplication for the captcha fonts: QTEST_MAIN with QT_QPA_PLATFORM=offscreen.
class TestAadhaarApi final : public QObject
{
    Q_OBJECT

private slots:
    void wholeFlowInSpecShapes();
    void transactionIdAsDigitString();
    void captchaUrlIsRelativePublicPng();
    void captchaUrlNeverFollowsTheHostHeader_data();
    void captchaUrlNeverFollowsTheHostHeader();
    void captchaUnknownOrFinishedIs404_data();
    void captchaUnknownOrFinishedIs404();
    void invalidInput_data();
    void invalidInput();
    void captchaMismatchCountsDownAndCloses();
    void captchaExpires();
    void otpMismatchCountsDownAndCloses();
    void otpExpiresAndCanBeResent();
    void transactionExpiresAndIsErased();
    void stepsOutOfOrderAre409();
    void differentNumberOnResendIs409();
    void resendIsThrottled();
    void throttleCoversNewTransactionsForTheSameNumber();
    void noMobileLinked();
    void otherAccountsTransactionIs404();
    void liveKeysGetGatewayError();
    void sandboxIsHiddenFromOtherKeys_data();
    void sandboxIsHiddenFromOtherKeys();
    void sandboxSmsOutbox();
    void fullNumberNeverStoredOrLogged();
    void sandboxValuesAreErasedWithTheFlow_data();
    void sandboxValuesAreErasedWithTheFlow();
    void answersAreNotCached();
};

void TestAadhaarApi::wholeFlowInSpecShapes()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("23456789012"));

    const HttpResult initiated = flow.initiate();
    QCOMPARE(initiated.status, 200);
    QCOMPARE(keysOf(initiated.json()), QSet<QString>{QStringLiteral("data")});
    const QJsonObject first = initiated.data();
    QCOMPARE(keysOf(first),
             (QSet<QString>{QStringLiteral("transaction_id"), QStringLiteral("entity"), QStringLiteral("status"),
                            QStringLiteral("msg"), QStringLiteral("captcha")}));
    QVERIFY(first.value(QStringLiteral("transaction_id")).isDouble());
    const qint64 id = first.value(QStringLiteral("transaction_id")).toInteger();
    QVERIFY(id > 0);
    QCOMPARE(first.value(QStringLiteral("entity")).toString(), QStringLiteral("aadhaar_authentication"));
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("CAPTCHA_GENERATED"));
    QVERIFY(!first.value(QStringLiteral("msg")).toString().isEmpty());

    const QJsonObject sandboxBefore = flow.sandbox(id);
    QCOMPARE(sandboxBefore.value(QStringLiteral("entity")).toString(), QStringLiteral("sandbox_aadhaar"));
    QCOMPARE(sandboxBefore.value(QStringLiteral("transaction_id")).toInteger(), id);
    QVERIFY(sandboxBefore.value(QStringLiteral("otp_value")).isNull());
    const QString captcha = sandboxBefore.value(QStringLiteral("captcha_value")).toString();
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9]{6}$")).match(captcha).hasMatch());

    const HttpResult requested = flow.requestOtp(id, number, captcha);
    QCOMPARE(requested.status, 200);
    const QJsonObject second = requested.data();
    QCOMPARE(keysOf(second),
             (QSet<QString>{QStringLiteral("transaction_id"), QStringLiteral("entity"),
                            QStringLiteral("aadhaar_number"), QStringLiteral("status"), QStringLiteral("msg")}));
    QCOMPARE(second.value(QStringLiteral("transaction_id")).toInteger(), id);
    QVERIFY(second.value(QStringLiteral("transaction_id")).isDouble());
    QCOMPARE(second.value(QStringLiteral("entity")).toString(), QStringLiteral("aadhaar_authentication"));
    QCOMPARE(second.value(QStringLiteral("aadhaar_number")).toString(), number);
    QCOMPARE(second.value(QStringLiteral("status")).toString(), QStringLiteral("OTP_GENERATED"));
    const QString mobile = SandboxResidents::linkedMobile(number).value();
    const QString msg = second.value(QStringLiteral("msg")).toString();
    QVERIFY2(msg.contains(QStringLiteral("XXXXXX") + mobile.right(4)), qPrintable(msg));
    QVERIFY(!msg.contains(mobile));
    QVERIFY(!msg.contains(number));

    const QString otp = flow.otpOf(id);
    QVERIFY(QRegularExpression(QStringLiteral("^[0-9]{6}$")).match(otp).hasMatch());
    QCOMPARE(flow.captchaOf(id), captcha);
    QCOMPARE(sealedNumbers(server), 1); // kept sealed while the flow needs it

    const HttpResult verified = flow.verifyOtp(id, otp);
    QCOMPARE(verified.status, 200);
    const QJsonObject third = verified.data();
    QCOMPARE(keysOf(third),
             (QSet<QString>{QStringLiteral("transaction_id"), QStringLiteral("entity"),
                            QStringLiteral("aadhaar_number"), QStringLiteral("status"), QStringLiteral("msg")}));
    QCOMPARE(third.value(QStringLiteral("transaction_id")).toInteger(), id);
    QCOMPARE(third.value(QStringLiteral("entity")).toString(), QStringLiteral("aadhaar_authentication"));
    QCOMPARE(third.value(QStringLiteral("aadhaar_number")).toString(), number);
    QCOMPARE(third.value(QStringLiteral("status")).toString(), QStringLiteral("AUTHENTICATION_SUCCESS"));
    QVERIFY(!third.value(QStringLiteral("msg")).toString().contains(number));
    QCOMPARE(sealedNumbers(server), 0); // erased with the success
}

void TestAadhaarApi::transactionIdAsDigitString()
{
    TestServer server;
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("34567890123"));
    const qint64 id = flow.start();
    const QString text = QString::number(id);
    const HttpResult requested = flow.requestOtp(QStringLiteral(" %1 ").arg(text), number, flow.captchaOf(id));
    QCOMPARE(requested.status, 200);
    QCOMPARE(requested.data().value(QStringLiteral("transaction_id")).toInteger(), id);
    const HttpResult verified = flow.verifyOtp(text, flow.otpOf(id));
    QCOMPARE(verified.status, 200);
    QCOMPARE(verified.data().value(QStringLiteral("status")).toString(), QStringLiteral("AUTHENTICATION_SUCCESS"));
}

void TestAadhaarApi::captchaUrlIsRelativePublicPng()
{
    TestServer server;
    Flow flow(server, server.pos());
    const QJsonObject data = flow.initiate().data();
    const QUrl captcha(data.value(QStringLiteral("captcha")).toString(), QUrl::StrictMode);
    // No public URL configured: a path on this server (api-v1.md: "URL or path"), never a host the
    // request named (issue 12).
    QVERIFY2(captcha.isValid() && captcha.isRelative() && captcha.host().isEmpty(), qPrintable(captcha.toString()));
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("^/api/v1/uidai/aadhaar-authentication/captcha/([A-Za-z0-9_-]+)\\.png$"))
            .match(captcha.path());
    QVERIFY2(match.hasMatch(), qPrintable(captcha.path()));
    QVERIFY(match.captured(1).size() >= 22); // at least 128 bits in base64url

    const QUrl absolute = server.baseUrl().resolved(captcha); // as the terminal resolves it
    const HttpResult image = server.http().get(absolute);     // no Authorization header
    QCOMPARE(image.status, 200);
    QCOMPARE(image.header("content-type"), QByteArray("image/png"));
    const QImage decoded = QImage::fromData(image.body, "PNG");
    QVERIFY(!decoded.isNull());
    QCOMPARE(decoded.size(), QSize(200, 70));
    QCOMPARE(server.http().get(absolute).body, image.body); // rendered once, served the same every time

    const QUrl other(flow.initiate().data().value(QStringLiteral("captcha")).toString());
    QVERIFY(other.path() != captcha.path());
}

void TestAadhaarApi::captchaUrlNeverFollowsTheHostHeader_data()
{
    QTest::addColumn<QString>("publicUrl");
    QTest::addColumn<QString>("expectedPrefix");
    QTest::newRow("no public URL: relative") << QString() << QStringLiteral("/api/v1/uidai/");
    QTest::newRow("public URL") << QStringLiteral("https://shop.lan:8443")
                                << QStringLiteral("https://shop.lan:8443/api/v1/uidai/");
    QTest::newRow("public URL with a path")
        << QStringLiteral("https://shop.lan/desk/") << QStringLiteral("https://shop.lan/desk/api/v1/uidai/");
}

void TestAadhaarApi::captchaUrlNeverFollowsTheHostHeader()
{
    QFETCH(QString, publicUrl);
    QFETCH(QString, expectedPrefix);
    ServerOptions options = TestServer::defaultOptions();
    options.publicUrl = QUrl(publicUrl);
    TestServer server(options);
    // A client on the LAN (or a DNS-rebinding page) names another host: the link must not point there.
    const HttpResult initiated = server.http().send("GET", server.url(kBase + QStringLiteral("/initiate-transaction")),
                                                    {}, {{"Authorization", server.pos()}, {"Host", "evil.example"}});
    QCOMPARE(initiated.status, 200);
    const QString captcha = initiated.data().value(QStringLiteral("captcha")).toString();
    QVERIFY2(!captcha.contains(QLatin1String("evil")), qPrintable(captcha));
    QVERIFY2(captcha.startsWith(expectedPrefix), qPrintable(captcha));
    QVERIFY2(captcha.endsWith(QLatin1String(".png")), qPrintable(captcha));
}

void TestAadhaarApi::captchaUnknownOrFinishedIs404_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("made-up token") << QStringLiteral("made-up");
    QTest::newRow("without .png") << QStringLiteral("no-extension");
    QTest::newRow("captcha expired") << QStringLiteral("expired");
    QTest::newRow("flow finished") << QStringLiteral("finished");
    QTest::newRow("transaction closed") << QStringLiteral("closed");
}

void TestAadhaarApi::captchaUnknownOrFinishedIs404()
{
    QFETCH(QString, how);
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QJsonObject initiated = flow.initiate().data();
    const qint64 id = initiated.value(QStringLiteral("transaction_id")).toInteger();
    QUrl url = server.baseUrl().resolved(QUrl(initiated.value(QStringLiteral("captcha")).toString()));
    QCOMPARE(server.http().get(url).status, 200);
    const QString number = aadhaarWith(QStringLiteral("45678901234"));
    const QString captcha = flow.captchaOf(id);
    if (how == QLatin1String("made-up")) {
        url.setPath(kBase + QStringLiteral("/captcha/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png"));
    } else if (how == QLatin1String("no-extension")) {
        url.setPath(url.path().chopped(4));
    } else if (how == QLatin1String("expired")) {
        clock.advanceMs(10 * kMinute);
    } else if (how == QLatin1String("finished")) {
        QCOMPARE(flow.requestOtp(id, number, captcha).status, 200);
        QCOMPARE(server.http().get(url).status, 200); // still there while the OTP is pending
        QCOMPARE(flow.verifyOtp(id, flow.otpOf(id)).status, 200);
    } else {
        for (int i = 0; i < 3; ++i)
            QCOMPARE(flow.requestOtp(id, number, Flow::wrong(captcha)).status, 400);
    }
    expectError(server.http().get(url), 404, QStringLiteral("NOT_FOUND_ERROR"), QStringLiteral("captcha_not_found"));
}

void TestAadhaarApi::invalidInput_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reason");

    const QString valid = aadhaarWith(QStringLiteral("23456789012"));
    QString wrongCheck = valid;
    wrongCheck[11] = QChar(u'0' + (valid.at(11).digitValue() + 1) % 10);
    const auto otpBody = [](const QJsonValue &number, const QJsonValue &captcha) {
        return QJsonObject{{QStringLiteral("transaction_id"), QStringLiteral("ID")},
                           {QStringLiteral("aadhaar_number"), number},
                           {QStringLiteral("captcha_value"), captcha}};
    };
    const QString requestOtp = QStringLiteral("/request-otp");
    const QString verifyOtp = QStringLiteral("/verify-otp");
    const QString number = QStringLiteral("aadhaar_number");
    QTest::newRow("wrong check digit") << otpBody(wrongCheck, QStringLiteral("123456")) << requestOtp << number
                                       << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("11 digits") << otpBody(valid.left(11), QStringLiteral("123456")) << requestOtp << number
                               << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("13 digits") << otpBody(QString(valid + u'0'), QStringLiteral("123456")) << requestOtp << number
                               << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("starts with 1") << otpBody(aadhaarWith(QStringLiteral("13456789012")), QStringLiteral("123456"))
                                   << requestOtp << number << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("starts with 0") << otpBody(aadhaarWith(QStringLiteral("03456789012")), QStringLiteral("123456"))
                                   << requestOtp << number << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("grouped with spaces") << otpBody(
                                                QString(valid.left(4) + u' ' + valid.mid(4, 4) + u' ' + valid.mid(8)),
                                                QStringLiteral("123456"))
                                         << requestOtp << number << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("letters") << otpBody(QStringLiteral("2345678901ab"), QStringLiteral("123456")) << requestOtp
                             << number << QStringLiteral("invalid_aadhaar_number");
    QTest::newRow("number as JSON integer") << otpBody(valid.toDouble(), QStringLiteral("123456")) << requestOtp
                                            << number << QStringLiteral("invalid_type");
    QTest::newRow("number missing") << otpBody(QJsonValue(), QStringLiteral("123456")) << requestOtp << number
                                    << QStringLiteral("missing_field");
    QTest::newRow("captcha letters") << otpBody(valid, QStringLiteral("12a456")) << requestOtp
                                     << QStringLiteral("captcha_value") << QStringLiteral("invalid_captcha_value");
    QTest::newRow("captcha missing") << otpBody(valid, QStringLiteral("  ")) << requestOtp
                                     << QStringLiteral("captcha_value") << QStringLiteral("missing_field");
    QJsonObject decimalId = otpBody(valid, QStringLiteral("123456"));
    decimalId.insert(QStringLiteral("transaction_id"), QStringLiteral("1.0"));
    QTest::newRow("transaction_id decimal")
        << decimalId << requestOtp << QStringLiteral("transaction_id") << QStringLiteral("not_an_integer");
    QJsonObject negativeId = otpBody(valid, QStringLiteral("123456"));
    negativeId.insert(QStringLiteral("transaction_id"), -1);
    QTest::newRow("transaction_id negative")
        << negativeId << requestOtp << QStringLiteral("transaction_id") << QStringLiteral("not_an_integer");
    QTest::newRow("transaction_id missing")
        << QJsonObject{{QStringLiteral("otp_value"), QStringLiteral("123456")}} << verifyOtp
        << QStringLiteral("transaction_id") << QStringLiteral("missing_field");
    QTest::newRow("otp letters") << QJsonObject{{QStringLiteral("transaction_id"), QStringLiteral("ID")},
                                                {QStringLiteral("otp_value"), QStringLiteral("12345x")}}
                                 << verifyOtp << QStringLiteral("otp_value") << QStringLiteral("invalid_otp_value");
    QTest::newRow("otp missing") << QJsonObject{{QStringLiteral("transaction_id"), QStringLiteral("ID")}} << verifyOtp
                                 << QStringLiteral("otp_value") << QStringLiteral("missing_field");
}

void TestAadhaarApi::invalidInput()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, endpoint);
    QFETCH(QString, field);
    QFETCH(QString, reason);
    TestServer server;
    Flow flow(server, server.pos());
    const qint64 id = flow.start();
    if (body.value(QStringLiteral("transaction_id")) == QJsonValue(QStringLiteral("ID")))
        body.insert(QStringLiteral("transaction_id"), id);
    const HttpResult result = server.http().postJson(server.url(kBase + endpoint), body, server.pos());
    expectError(result, 400, QStringLiteral("BAD_REQUEST_ERROR"), reason, field);

    // Bad input changes nothing: the transaction still takes its right answer, with all attempts.
    const QString captcha = flow.captchaOf(id);
    const HttpResult requested = flow.requestOtp(id, aadhaarWith(QStringLiteral("23456789012")), captcha);
    QCOMPARE(requested.status, 200);
}

void TestAadhaarApi::captchaMismatchCountsDownAndCloses()
{
    TestServer server;
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("56789012345"));
    const qint64 id = flow.start();
    const QString captcha = flow.captchaOf(id);
    // The count is data too (issue 14): `attempts_left` in the error envelope, so no client parses the prose.
    for (const auto &[expected, count] : attemptsLeft()) {
        const HttpResult result = flow.requestOtp(id, number, Flow::wrong(captcha));
        expectError(result, 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("captcha_mismatch"),
                    QStringLiteral("captcha_value"));
        const QString description = result.error().value(QStringLiteral("description")).toString();
        QVERIFY2(description.contains(expected), qPrintable(description));
        expectAttemptsLeft(result, count);
    }
    expectError(flow.requestOtp(id, number, captcha), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("transaction_closed"));
    expectError(flow.verifyOtp(id, QStringLiteral("123456")), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("transaction_closed"));

    // A short answer is a wrong answer too, and a right one after a miss still works.
    const qint64 next = flow.start();
    expectError(flow.requestOtp(next, number, QStringLiteral("1")), 400, QStringLiteral("BAD_REQUEST_ERROR"),
                QStringLiteral("captcha_mismatch"), QStringLiteral("captcha_value"));
    QCOMPARE(flow.requestOtp(next, number, flow.captchaOf(next)).status, 200);
}

void TestAadhaarApi::captchaExpires()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("67890123456"));
    const qint64 id = flow.start();
    const QString captcha = flow.captchaOf(id);
    clock.advanceMs(10 * kMinute - 1000);
    const qint64 stillValid = flow.start();
    const QString stillValidCaptcha = flow.captchaOf(stillValid);
    clock.advanceMs(1000); // exactly 10 minutes after the first initiate
    expectError(flow.requestOtp(id, number, captcha), 400, QStringLiteral("BAD_REQUEST_ERROR"),
                QStringLiteral("captcha_expired"), QStringLiteral("captcha_value"));
    expectError(flow.requestOtp(id, number, captcha), 400, QStringLiteral("BAD_REQUEST_ERROR"),
                QStringLiteral("captcha_expired"), QStringLiteral("captcha_value"));
    QCOMPARE(flow.requestOtp(stillValid, number, stillValidCaptcha).status, 200);
}

void TestAadhaarApi::otpMismatchCountsDownAndCloses()
{
    TestServer server;
    Flow flow(server, server.pos());
    const qint64 id = flow.toOtpGenerated(aadhaarWith(QStringLiteral("78901234567")));
    QVERIFY(id > 0);
    const QString otp = flow.otpOf(id);
    QCOMPARE(sealedNumbers(server), 1);
    for (const auto &[expected, count] : attemptsLeft()) {
        const HttpResult result = flow.verifyOtp(id, Flow::wrong(otp));
        expectError(result, 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("otp_mismatch"),
                    QStringLiteral("otp_value"));
        const QString description = result.error().value(QStringLiteral("description")).toString();
        QVERIFY2(description.contains(expected), qPrintable(description));
        expectAttemptsLeft(result, count);
    }
    QCOMPARE(sealedNumbers(server), 0); // closing erases the number
    const HttpResult closed = flow.verifyOtp(id, otp);
    expectError(closed, 409, QStringLiteral("CONFLICT_ERROR"), QStringLiteral("transaction_closed"));
    QVERIFY(!closed.error().contains(QStringLiteral("attempts_left"))); // only wrong answers carry a count
}

void TestAadhaarApi::otpExpiresAndCanBeResent()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("89012345678"));
    const qint64 id = flow.start();
    const QString captcha = flow.captchaOf(id);
    QCOMPARE(flow.requestOtp(id, number, captcha).status, 200);
    const QString expired = flow.otpOf(id);
    clock.advanceMs(10 * kMinute);
    expectError(flow.verifyOtp(id, expired), 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("otp_expired"),
                QStringLiteral("otp_value"));

    // The same request-otp again sends a fresh OTP, valid another 10 minutes.
    const HttpResult resent = flow.requestOtp(id, number, captcha);
    QCOMPARE(resent.status, 200);
    QCOMPARE(resent.data().value(QStringLiteral("status")).toString(), QStringLiteral("OTP_GENERATED"));
    clock.advanceMs(10 * kMinute - 1000);
    const HttpResult verified = flow.verifyOtp(id, flow.otpOf(id));
    QCOMPARE(verified.status, 200);
    QCOMPARE(verified.data().value(QStringLiteral("aadhaar_number")).toString(), number);
}

void TestAadhaarApi::transactionExpiresAndIsErased()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("90123456789"));
    const qint64 pending = flow.toOtpGenerated(number);
    QVERIFY(pending > 0);
    const QString otp = flow.otpOf(pending);
    const qint64 untouched = flow.start();
    const QString untouchedCaptcha = flow.captchaOf(untouched); // read now: the sandbox erases it with the flow
    QCOMPARE(sealedNumbers(server), 1);

    clock.advanceMs(30 * kMinute);
    QVERIFY(flow.start() > 0); // any initiate sweeps expired transactions, as the periodic sweep does
    QCOMPARE(sealedNumbers(server), 0);
    expectError(flow.verifyOtp(pending, otp), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("transaction_expired"));
    expectError(flow.requestOtp(untouched, number, untouchedCaptcha), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("transaction_expired"));
}

void TestAadhaarApi::stepsOutOfOrderAre409()
{
    TestServer server;
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("22334455667"));
    const qint64 id = flow.start();
    expectError(flow.verifyOtp(id, QStringLiteral("123456")), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("otp_not_requested"));
    const QString captcha = flow.captchaOf(id);
    QCOMPARE(flow.requestOtp(id, number, captcha).status, 200);
    const QString otp = flow.otpOf(id);
    QCOMPARE(flow.verifyOtp(id, otp).status, 200);
    expectError(flow.verifyOtp(id, otp), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("already_authenticated"));
    expectError(flow.requestOtp(id, number, captcha), 409, QStringLiteral("CONFLICT_ERROR"),
                QStringLiteral("already_authenticated"));
}

void TestAadhaarApi::differentNumberOnResendIs409()
{
    TestServer server;
    Flow flow(server, server.pos());
    const qint64 id = flow.toOtpGenerated(aadhaarWith(QStringLiteral("33445566778")));
    QVERIFY(id > 0);
    expectError(flow.requestOtp(id, aadhaarWith(QStringLiteral("44556677889")), flow.captchaOf(id)), 409,
                QStringLiteral("CONFLICT_ERROR"), QStringLiteral("aadhaar_number_changed"),
                QStringLiteral("aadhaar_number"));
}

void TestAadhaarApi::resendIsThrottled()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("55667788990"));
    const qint64 id = flow.start();
    const QString captcha = flow.captchaOf(id);
    QCOMPARE(flow.requestOtp(id, number, captcha).status, 200); // send 1 at t0

    HttpResult throttled = flow.requestOtp(id, number, captcha);
    expectError(throttled, 429, QStringLiteral("RATE_LIMIT_ERROR"), QStringLiteral("otp_throttled"));
    QCOMPARE(throttled.header("retry-after"), QByteArray("60"));
    clock.advanceMs(59 * 1000);
    throttled = flow.requestOtp(id, number, captcha);
    expectError(throttled, 429, QStringLiteral("RATE_LIMIT_ERROR"), QStringLiteral("otp_throttled"));
    QCOMPARE(throttled.header("retry-after"), QByteArray("1"));
    clock.advanceMs(1000);

    for (int send = 2; send <= 5; ++send) { // sends at t0 + 1, 2, 3, 4 minutes
        const HttpResult resent = flow.requestOtp(id, number, captcha);
        QVERIFY2(resent.status == 200, resent.body.constData());
        clock.advanceMs(kMinute);
    }
    // t0 + 5 minutes: five sends in the window; the oldest leaves it at t0 + 30 minutes.
    throttled = flow.requestOtp(id, number, captcha);
    expectError(throttled, 429, QStringLiteral("RATE_LIMIT_ERROR"), QStringLiteral("otp_throttled"));
    QCOMPARE(throttled.header("retry-after"), QByteArray::number(25 * 60));

    // The latest OTP still verifies; throttling never blocks verification.
    const HttpResult verified = flow.verifyOtp(id, flow.otpOf(id));
    QCOMPARE(verified.status, 200);
}

void TestAadhaarApi::throttleCoversNewTransactionsForTheSameNumber()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("66778899001"));
    QVERIFY(flow.toOtpGenerated(number) > 0);
    const qint64 again = flow.start();
    const HttpResult throttled = flow.requestOtp(again, number, flow.captchaOf(again));
    expectError(throttled, 429, QStringLiteral("RATE_LIMIT_ERROR"), QStringLiteral("otp_throttled"));
    QCOMPARE(throttled.header("retry-after"), QByteArray("60"));
    QVERIFY(flow.toOtpGenerated(aadhaarWith(QStringLiteral("77889900112"))) > 0); // another number is not throttled
    clock.advanceMs(kMinute);
    QCOMPARE(flow.requestOtp(again, number, flow.captchaOf(again)).status, 200);
}

void TestAadhaarApi::noMobileLinked()
{
    TestServer server;
    Flow flow(server, server.pos());
    const QString unlinked = aadhaarWith(QStringLiteral("23456780000"));
    QVERIFY(Validators::isAadhaarNumber(unlinked));
    const qint64 id = flow.start();
    const QString captcha = flow.captchaOf(id);
    const HttpResult result = flow.requestOtp(id, unlinked, captcha);
    expectError(result, 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("no_mobile_linked"),
                QStringLiteral("aadhaar_number"));
    const QString description = result.error().value(QStringLiteral("description")).toString();
    QVERIFY2(description.contains(QStringLiteral("no mobile number is linked")), qPrintable(description));
    QVERIFY(!description.contains(unlinked));
    QVERIFY(description.contains(QStringLiteral("XXXX XXXX ") + unlinked.right(4)));
    QVERIFY(flow.sandbox(id).value(QStringLiteral("otp_value")).isNull()); // nothing was sent

    // The transaction stays usable with a number that has a mobile.
    QCOMPARE(flow.requestOtp(id, aadhaarWith(QStringLiteral("23456781111")), captcha).status, 200);
}

void TestAadhaarApi::otherAccountsTransactionIs404()
{
    TestServer server;
    Flow mine(server, server.pos());
    const QByteArray otherKey = server.createKey(Mode::Test, Scope::Admin, QStringLiteral("other shop"));
    Flow theirs(server, otherKey, otherKey);
    const QString number = aadhaarWith(QStringLiteral("88990011223"));
    const qint64 id = mine.start();
    const QString captcha = mine.captchaOf(id);

    expectError(theirs.requestOtp(id, number, captcha), 404, QStringLiteral("NOT_FOUND_ERROR"),
                QStringLiteral("transaction_not_found"));
    QCOMPARE(mine.requestOtp(id, number, captcha).status, 200);
    const QString otp = mine.otpOf(id);
    expectError(theirs.verifyOtp(id, otp), 404, QStringLiteral("NOT_FOUND_ERROR"),
                QStringLiteral("transaction_not_found"));
    expectError(server.http().get(server.url(QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(id)), otherKey), 404,
                QStringLiteral("NOT_FOUND_ERROR"), QStringLiteral("transaction_not_found"));
    expectError(theirs.verifyOtp(999999, otp), 404, QStringLiteral("NOT_FOUND_ERROR"),
                QStringLiteral("transaction_not_found"));
    QCOMPARE(mine.verifyOtp(id, otp).status, 200); // the other account's tries cost nothing
}

void TestAadhaarApi::liveKeysGetGatewayError()
{
    TestServer server;
    Flow live(server, server.createKey(Mode::Live, Scope::Pos));
    expectError(live.initiate(), 503, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("no_uidai_gateway"));
    Flow test(server, server.pos());
    const qint64 id = test.start();
    expectError(live.requestOtp(id, aadhaarWith(QStringLiteral("23456789012")), test.captchaOf(id)), 503,
                QStringLiteral("GATEWAY_ERROR"), QStringLiteral("no_uidai_gateway"));
    expectError(live.verifyOtp(id, QStringLiteral("123456")), 503, QStringLiteral("GATEWAY_ERROR"),
                QStringLiteral("no_uidai_gateway"));
    QSqlQuery count(server.db().connection());
    QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM aadhaar_transactions WHERE mode = 'live'")) &&
            count.next());
    QCOMPARE(count.value(0).toInt(), 0);
}

void TestAadhaarApi::sandboxIsHiddenFromOtherKeys_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("scope");
    QTest::newRow("test pos") << int(Mode::Test) << int(Scope::Pos);
    QTest::newRow("live pos") << int(Mode::Live) << int(Scope::Pos);
    QTest::newRow("live admin") << int(Mode::Live) << int(Scope::Admin);
}

void TestAadhaarApi::sandboxIsHiddenFromOtherKeys()
{
    QFETCH(int, mode);
    QFETCH(int, scope);
    TestServer server;
    Flow flow(server, server.pos());
    const qint64 id = flow.start();
    const QByteArray key = server.createKey(Mode(mode), Scope(scope));
    for (const QString &path :
         {QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(id), QStringLiteral("/api/v1/sandbox/sms")}) {
        const HttpResult result = server.http().get(server.url(path), key);
        expectError(result, 404, QStringLiteral("NOT_FOUND_ERROR"), QStringLiteral("unknown_path"));
        QVERIFY(!result.body.contains(flow.captchaOf(id).toLatin1()));
    }
    QCOMPARE(server.http().get(server.url(QStringLiteral("/api/v1/sandbox/sms")), server.admin()).status, 200);
}

void TestAadhaarApi::sandboxSmsOutbox()
{
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString first = aadhaarWith(QStringLiteral("23456789013"));
    const QString second = aadhaarWith(QStringLiteral("34567890124"));
    const qint64 a = flow.toOtpGenerated(first);
    const QString otpA = flow.otpOf(a);
    const qint64 b = flow.toOtpGenerated(second);
    const QString otpB = flow.otpOf(b);
    QVERIFY(a > 0 && b > 0);
    // Another account's messages are not listed.
    const QByteArray otherAdmin = server.createKey(Mode::Test, Scope::Admin, QStringLiteral("other shop"));
    Flow other(server, otherAdmin, otherAdmin);
    QVERIFY(other.toOtpGenerated(aadhaarWith(QStringLiteral("45678901235"))) > 0);
    const HttpResult otherOutbox = server.http().get(server.url(QStringLiteral("/api/v1/sandbox/sms")), otherAdmin);
    QCOMPARE(otherOutbox.data().value(QStringLiteral("count")).toInt(), 1);

    const HttpResult outbox = server.http().get(server.url(QStringLiteral("/api/v1/sandbox/sms")), server.admin());
    QCOMPARE(outbox.status, 200);
    const QJsonObject data = outbox.data();
    QCOMPARE(data.value(QStringLiteral("entity")).toString(), QStringLiteral("collection"));
    const QJsonArray items = data.value(QStringLiteral("items")).toArray();
    QCOMPARE(data.value(QStringLiteral("count")).toInt(), items.size());
    QCOMPARE(items.size(), 2);
    const QJsonObject newest = items.at(0).toObject();
    const QJsonObject oldest = items.at(1).toObject();
    QCOMPARE(newest.value(QStringLiteral("entity")).toString(), QStringLiteral("sandbox_sms"));
    QCOMPARE(newest.value(QStringLiteral("transaction_id")).toInteger(), b);
    QCOMPARE(oldest.value(QStringLiteral("transaction_id")).toInteger(), a);
    QVERIFY(newest.value(QStringLiteral("message")).toString().contains(otpB));
    QVERIFY(oldest.value(QStringLiteral("message")).toString().contains(otpA));
    QCOMPARE(newest.value(QStringLiteral("mobile")).toString(),
             QStringLiteral("XXXXXX") + SandboxResidents::linkedMobile(second)->right(4));
    QCOMPARE(newest.value(QStringLiteral("datetime")).toString(), QStringLiteral("2025-01-15 15:30:00"));
    for (const QJsonValue &item : items) {
        const QString message = item.toObject().value(QStringLiteral("message")).toString();
        QVERIFY(!message.contains(first) && !message.contains(second));
        QVERIFY(message.contains(QStringLiteral("XXXX XXXX ")));
    }
    QCOMPARE(server.http()
                 .get(smsUrl(server, QStringLiteral("limit=1")), server.admin())
                 .data()
                 .value(QStringLiteral("count"))
                 .toInt(),
             1);
    expectError(server.http().get(smsUrl(server, QStringLiteral("limit=0")), server.admin()), 400,
                QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("invalid_query_parameter"),
                QStringLiteral("limit"));
}

void TestAadhaarApi::fullNumberNeverStoredOrLogged()
{
    const LogCapture capture;
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("98765432101"));
    const QString masked = QStringLiteral("XXXX XXXX ") + number.right(4);

    // Success after a wrong captcha, a wrong OTP and a resend.
    const qint64 done = flow.start();
    const QString captcha = flow.captchaOf(done);
    QCOMPARE(flow.requestOtp(done, number, Flow::wrong(captcha)).status, 400);
    QCOMPARE(flow.requestOtp(done, number, captcha).status, 200);
    QCOMPARE(flow.verifyOtp(done, Flow::wrong(flow.otpOf(done))).status, 400);
    clock.advanceMs(kMinute);
    QCOMPARE(flow.requestOtp(done, number, captcha).status, 200);
    const HttpResult verified = flow.verifyOtp(done, flow.otpOf(done));
    QCOMPARE(verified.status, 200);
    QCOMPARE(verified.data().value(QStringLiteral("aadhaar_number")).toString(), number);

    // Closed after three wrong OTPs.
    clock.advanceMs(kMinute);
    const qint64 closed = flow.toOtpGenerated(number);
    QVERIFY(closed > 0);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(flow.verifyOtp(closed, Flow::wrong(flow.otpOf(closed))).status, 400);

    // Abandoned at OTP_GENERATED, then swept.
    clock.advanceMs(kMinute);
    QVERIFY(flow.toOtpGenerated(number) > 0);
    QCOMPARE(sealedNumbers(server), 1);
    clock.advanceMs(31 * kMinute);
    QVERIFY(flow.start() > 0);
    QCOMPARE(sealedNumbers(server), 0);

    const QStringList cells = server.cellsContaining(number); // what any backend holds, PostgreSQL's too
    QVERIFY2(cells.isEmpty(), qPrintable(cells.join(QStringLiteral(", "))));
    QStringList found = filesContaining(server.dataDir(), number);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral(", "))));
    if (!TestStore::postgres()) // the SQLite file and its WAL live in the data directory: scanned above
        QVERIFY(QFile::exists(server.dataDir() + QStringLiteral("/rechargedesk.db-wal")));
    server.stop(); // SQLite: checkpoint the WAL into the database file and scan again
    found = filesContaining(server.dataDir(), number);
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral(", "))));

    const QString log = capture.text();
    QVERIFY2(log.contains(masked), "the capture saw no Aadhaar log line, so it proves nothing");
    QVERIFY(!log.contains(number));
}

QTEST_MAIN(TestAadhaarApi)
void TestAadhaarApi::sandboxValuesAreErasedWithTheFlow_data()
{
    QTest::addColumn<QString>("end");
    QTest::newRow("success") << QStringLiteral("success");
    QTest::newRow("three wrong OTPs") << QStringLiteral("otp_attempts");
    QTest::newRow("three wrong captchas") << QStringLiteral("captcha_attempts");
    QTest::newRow("expired, swept") << QStringLiteral("expired");
}

// Issue 12: the sandbox keeps the clear captcha, OTP and SMS text only while the flow is open; whichever way it
// ends, the database no longer holds them (the SMS row stays, masked and without its text).
void TestAadhaarApi::sandboxValuesAreErasedWithTheFlow()
{
    QFETCH(QString, end);
    ManualClock clock(fixedStart());
    TestServer server(TestServer::defaultOptions(), &clock);
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("56789012345"));
    const qint64 id = end == QLatin1String("captcha_attempts") ? flow.start() : flow.toOtpGenerated(number);
    QVERIFY(id > 0);
    const QString captcha = flow.captchaOf(id);
    const QString otp = flow.otpOf(id);
    const auto scalar = [&server](const QString &sql) {
        QSqlQuery query(server.db().connection());
        return query.exec(sql) && query.next() ? query.value(0).toLongLong() : -1;
    };
    const QString secretsOf = QStringLiteral("SELECT COUNT(*) FROM aadhaar_sandbox_secrets WHERE transaction_id = %1");
    const QString textsOf =
        QStringLiteral("SELECT COUNT(*) FROM sms_outbox WHERE transaction_id = %1 AND message <> ''");
    QCOMPARE(scalar(secretsOf.arg(id)), 1);
    QCOMPARE(scalar(textsOf.arg(id)), end == QLatin1String("captcha_attempts") ? 0 : 1);

    if (end == QLatin1String("success")) {
        QCOMPARE(flow.verifyOtp(id, otp).status, 200);
    } else if (end == QLatin1String("otp_attempts")) {
        for (int i = 0; i < 3; ++i)
            QCOMPARE(flow.verifyOtp(id, Flow::wrong(otp)).status, 400);
    } else if (end == QLatin1String("captcha_attempts")) {
        for (int i = 0; i < 3; ++i)
            QCOMPARE(flow.requestOtp(id, number, Flow::wrong(captcha)).status, 400);
    } else {
        clock.advanceMs(31 * kMinute);
        QVERIFY(flow.start() > 0); // initiate sweeps what expired
    }
    QCOMPARE(scalar(secretsOf.arg(id)), 0);
    QCOMPARE(scalar(textsOf.arg(id)), 0);
    if (end != QLatin1String("captcha_attempts"))
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM sms_outbox WHERE transaction_id = %1").arg(id)), 1);
    QCOMPARE(server.http().get(server.url(QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(id)), server.admin()).status,
             404);
}

// Issue 12: the flow's answers carry the Aadhaar number (verify-otp) and the sandbox's OTPs: never cached.
void TestAadhaarApi::answersAreNotCached()
{
    TestServer server;
    Flow flow(server, server.pos());
    const QString number = aadhaarWith(QStringLiteral("67890123456"));
    const qint64 id = flow.start();
    QVERIFY(id > 0);
    const HttpResult sandbox =
        server.http().get(server.url(QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(id)), server.admin());
    QCOMPARE(sandbox.header("cache-control"), QByteArray("no-store"));
    const HttpResult requested = flow.requestOtp(id, number, flow.captchaOf(id));
    QCOMPARE(requested.header("cache-control"), QByteArray("no-store"));
    const HttpResult verified = flow.verifyOtp(id, flow.otpOf(id));
    QCOMPARE(verified.status, 200);
    QCOMPARE(verified.data().value(QStringLiteral("aadhaar_number")).toString(), number);
    QCOMPARE(verified.header("cache-control"), QByteArray("no-store"));
    QCOMPARE(
        server.http().get(server.url(QStringLiteral("/api/v1/sandbox/sms")), server.admin()).header("cache-control"),
        QByteArray("no-store"));
}

#include "tst_aadhaarapi.moc"

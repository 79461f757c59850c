#include "entities/aadhaarstep.h"
#include "entities/apikey.h"
#include "entities/auditentry.h"
#include "entities/backupstatus.h"
#include "entities/collection.h"
#include "entities/saleupstream.h"
#include "entities/servertls.h"
#include "entities/shopsetupresult.h"
#include "entities/user.h"
#include "entities/webhook.h"

#include <QJsonDocument>
#include <QtTest>

#include <functional>

namespace {

/// Decodes `json` with T's codec and encodes the result again; empty object and `*error` set when it does not decode.
template <class T> QJsonObject roundTrip(const QJsonObject &json, QString *error)
{
    const std::optional<T> decoded = T::fromJson(json, error);
    return decoded ? decoded->toJson() : QJsonObject();
}

using RoundTrip = std::function<QJsonObject(const QJsonObject &, QString *)>;

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

} // namespace

Q_DECLARE_METATYPE(RoundTrip)

/// The codecs of core/entities/ for the people and integration side of the API (issue 14): each reads exactly what
/// the server writes and writes it back byte for byte, and a missing or mistyped field is an error naming the field.
class TestPeopleEntities final : public QObject
{
    Q_OBJECT

private slots:
    void serverAnswersRoundTrip_data();
    void serverAnswersRoundTrip();
    void missingOrMistypedFieldsAreErrors_data();
    void missingOrMistypedFieldsAreErrors();
    void collectionOfUsers();
    void attemptsLeftTravelsInTheErrorEnvelope();
};

void TestPeopleEntities::serverAnswersRoundTrip_data()
{
    QTest::addColumn<RoundTrip>("codec");
    QTest::addColumn<QJsonObject>("json");
    QTest::newRow("user") << RoundTrip(roundTrip<User>)
                          << parse(R"({"entity":"user","id":3,"name":"Asha","role":"clerk","active":true})");
    QTest::newRow("session") << RoundTrip(roundTrip<UserSignIn>)
                             << parse(R"({"entity":"session","session_token":"s_1","expires_at":"2026-11-24 18:30:00",
                                          "user":{"entity":"user","id":1,"name":"Owner","role":"admin","active":true}})");
    QTest::newRow("api key, revoked") << RoundTrip(roundTrip<ApiKey>)
                                      << parse(R"({"entity":"api_key","key_id":"test_ab","name":"Till 2","mode":"test",
                                                   "scope":"pos","created_at":"2026-11-01 09:00:00",
                                                   "revoked_at":"2026-11-02 10:00:00"})");
    QTest::newRow("api key, new with secret")
        << RoundTrip(roundTrip<ApiKey>)
        << parse(R"({"entity":"api_key","key_id":"live_cd","name":"Till 3","mode":"live","scope":"admin",
                     "created_at":"2026-11-01 09:00:00","revoked_at":null,"key_secret":"sec"})");
    QTest::newRow("audit entry") << RoundTrip(roundTrip<AuditEntry>)
                                 << parse(
                                        R"({"entity":"audit_entry","id":12,"actor":"user:Owner","action":"user.create",
                     "detail":"added clerk Asha","datetime":"2026-11-24 10:01:45"})");
    QTest::newRow("tls") << RoundTrip(roundTrip<ServerTls>) << parse(R"({"tls":true,"fingerprint_sha256":"AB:CD"})");
    QTest::newRow("no tls") << RoundTrip(roundTrip<ServerTls>) << parse(R"({"tls":false,"fingerprint_sha256":null})");
    QTest::newRow("webhook endpoint")
        << RoundTrip(roundTrip<WebhookEndpointInfo>)
        << parse(R"({"entity":"webhook_endpoint","mode":"test","url":"https://x.example/h","builtin_inbox":false,
                     "webhook_password":"pw","enabled":false,"disabled_reason":"410 Gone",
                     "previous_secret_expires_at":"2026-11-25 10:00:00","created_at":"2026-11-01 09:00:00",
                     "updated_at":"2026-11-24 10:00:00","secret":"whsec_1"})");
    QTest::newRow("webhook event")
        << RoundTrip(roundTrip<WebhookEventInfo>)
        << parse(R"({"entity":"webhook_event","id":9,"webhook_id":"msg_1","webhook_event":"test","transaction_id":null,
                     "status":"pending","attempts":0,"next_attempt_at":"2026-11-24 10:00:01"})");
    QTest::newRow("webhook delivery")
        << RoundTrip(roundTrip<WebhookDelivery>)
        << parse(R"({"entity":"webhook_delivery","id":4,"event_id":9,"webhook_id":"msg_1","webhook_event":"recharge",
                     "transaction_id":77,"attempt":2,"datetime":"2026-11-24 10:00:05","url":"https://x.example/h",
                     "http_status":null,"latency_ms":1200,"success":false,"error":"timeout","event_status":"failed",
                     "next_attempt_at":null})");
    QTest::newRow("inbox message")
        << RoundTrip(roundTrip<WebhookInboxMessage>)
        << parse(R"({"entity":"webhook_inbox_message","id":5,"webhook_id":"msg_1","webhook_event":"test",
                     "transaction_id":null,"received_at":"2026-11-24 10:00:05","deliveries":2,"body":{"a":1}})");
    QTest::newRow("receipt") << RoundTrip(roundTrip<WebhookReceipt>)
                             << parse(R"({"entity":"webhook_receipt","id":5,"webhook_id":"msg_1","duplicate":true})");
    QTest::newRow("aadhaar initiate")
        << RoundTrip(roundTrip<AadhaarStep>)
        << parse(R"({"entity":"aadhaar_authentication","transaction_id":12,"status":"CAPTCHA_GENERATED",
                     "msg":"Captcha generated","captcha":"/api/v1/uidai/aadhaar-authentication/captcha/x.png"})");
    QTest::newRow("aadhaar verified")
        << RoundTrip(roundTrip<AadhaarStep>)
        << parse(R"({"entity":"aadhaar_authentication","transaction_id":12,"status":"AUTHENTICATION_SUCCESS",
                     "msg":"Authenticated","aadhaar_number":"987654321012"})");
    QTest::newRow("sign-out") << RoundTrip(roundTrip<UserSignOut>)
                              << parse(R"({"entity":"session","signed_out":true})");
    QTest::newRow("shop setup") << RoundTrip(roundTrip<ShopSetupResult>)
                                << parse(R"({"entity":"shop_setup","key_id":"live_ab","key_secret":"sec"})");
    QTest::newRow("backup, with an archive")
        << RoundTrip(roundTrip<BackupStatus>)
        << parse(R"({"enabled":true,"at":"02:30","folder":"/var/lib/rechargedesk/backups","keep":7,
                     "next_run_at":"2026-11-25 02:30:00","last_error":null,
                     "last_backup":{"file":"rechargedesk-20261124-023000.tar.gz","created_at":"2026-11-24 02:30:00",
                                    "bytes":2048},"stale":false})");
    QTest::newRow("backup, off and none")
        << RoundTrip(roundTrip<BackupStatus>) << parse(R"({"enabled":false,"at":null,"folder":null,"keep":null,
                                                       "next_run_at":null,"last_error":null,"last_backup":null,
                                                       "stale":true})");
    QTest::newRow("sale upstream, refused")
        << RoundTrip(roundTrip<SaleUpstream>)
        << parse(R"({"state":"refused","upstream":"default","reference_id":"rd-1","transaction_id":null,"attempts":1,
                     "error":{"code":"insufficient_balance","description":"wallet short"},"attention":false,
                     "send_once":true,"tried":[],"resolution":null,"reversal":null,"mismatch":null})");
    QTest::newRow("sale upstream, settled")
        << RoundTrip(roundTrip<SaleUpstream>)
        << parse(R"({"state":"settled","upstream":"second","reference_id":"rd-2-2","transaction_id":991,"attempts":2,
                     "error":null,"attention":false,"send_once":false,
                     "tried":[{"upstream":"first","reference_id":"rd-2","outcome":"refused",
                               "error":{"code":"http_400","description":"Recharge not allowed for this number"}}],
                     "resolution":null,"reversal":null,"mismatch":null})");
    // Issue 26: ended by a person, then reversed and reported again by the upstream.
    QTest::newRow("sale upstream, resolved, reversed, mismatch")
        << RoundTrip(roundTrip<SaleUpstream>)
        << parse(R"({"state":"settled","upstream":"default","reference_id":"rd-3","transaction_id":null,"attempts":1,
                     "error":null,"attention":false,"send_once":true,"tried":[],
                     "resolution":{"by":"user:Asha","note":"dashboard shows success","at":"2026-11-28 19:42:00"},
                     "reversal":{"source":"statement","at":"2026-11-29 10:00:00"},
                     "mismatch":{"reported":"SUCCESS","source":"webhook","at":"2026-11-29 11:00:00"}})");
    QTest::newRow("empty paged collection")
        << RoundTrip(roundTrip<Collection<WebhookReceipt>>)
        << parse(R"({"entity":"collection","count":0,"items":[],"next_cursor":null})");
}

void TestPeopleEntities::serverAnswersRoundTrip()
{
    QFETCH(RoundTrip, codec);
    QFETCH(QJsonObject, json);
    QString error;
    const QJsonObject again = codec(json, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(QJsonDocument(again).toJson(QJsonDocument::Compact), QJsonDocument(json).toJson(QJsonDocument::Compact));
}

void TestPeopleEntities::missingOrMistypedFieldsAreErrors_data()
{
    QTest::addColumn<RoundTrip>("codec");
    QTest::addColumn<QJsonObject>("json");
    QTest::addColumn<QString>("expected");
    const QJsonObject user = parse(R"({"entity":"user","id":3,"name":"Asha","role":"clerk","active":true})");
    QJsonObject noActive = user;
    noActive.remove(QStringLiteral("active"));
    QTest::newRow("user without active") << RoundTrip(roundTrip<User>) << noActive
                                         << QStringLiteral("user: field `active` is missing");
    QJsonObject stringId = user;
    stringId.insert(QStringLiteral("id"), QStringLiteral("3"));
    QTest::newRow("user id as text") << RoundTrip(roundTrip<User>) << stringId
                                     << QStringLiteral("user: field `id` is not an integer");
    QJsonObject owner = user;
    owner.insert(QStringLiteral("role"), QStringLiteral("owner"));
    QTest::newRow("unknown role") << RoundTrip(roundTrip<User>) << owner
                                  << QStringLiteral("user: field `role` has the unknown value \"owner\"");
    QJsonObject key = user;
    QTest::newRow("a user is not a key") << RoundTrip(roundTrip<ApiKey>) << key
                                         << QStringLiteral("API key: field `entity` is \"user\", not \"api_key\"");
    const QJsonObject audit = parse(R"({"entity":"audit_entry","id":12,"actor":"user:Owner","action":"user.create",
                                         "detail":"added clerk Asha","datetime":"2026-11-24 10:01:45"})");
    QJsonObject noDetail = audit;
    noDetail.remove(QStringLiteral("detail"));
    QTest::newRow("audit entry without detail")
        << RoundTrip(roundTrip<AuditEntry>) << noDetail << QStringLiteral("audit entry: field `detail` is missing");
    QJsonObject numericAction = audit;
    numericAction.insert(QStringLiteral("action"), 7);
    QTest::newRow("audit action as a number") << RoundTrip(roundTrip<AuditEntry>) << numericAction
                                              << QStringLiteral("audit entry: field `action` is not a string");
    QTest::newRow("delivery without attempt count")
        << RoundTrip(roundTrip<WebhookDelivery>)
        << parse(R"({"entity":"webhook_delivery","id":4,"event_id":9,"webhook_id":"msg_1","webhook_event":"recharge",
                     "transaction_id":77,"datetime":"2026-11-24 10:00:05","url":"u","http_status":200,"latency_ms":3,
                     "success":true,"error":null,"event_status":"delivered","next_attempt_at":null})")
        << QStringLiteral("webhook delivery: field `attempt` is missing");
    QTest::newRow("aadhaar step with a bad status")
        << RoundTrip(roundTrip<AadhaarStep>)
        << parse(R"({"entity":"aadhaar_authentication","transaction_id":12,"status":"DONE","msg":"m"})")
        << QStringLiteral("Aadhaar step: field `status` has the unknown value \"DONE\"");
    QTest::newRow("tls without fingerprint") << RoundTrip(roundTrip<ServerTls>) << parse(R"({"tls":true})")
                                             << QStringLiteral("server TLS: field `fingerprint_sha256` is missing "
                                                               "although tls is true");
    QTest::newRow("backup without stale")
        << RoundTrip(roundTrip<BackupStatus>)
        << parse(R"({"enabled":false,"at":null,"folder":null,"keep":null,"next_run_at":null,"last_error":null,
                     "last_backup":null})")
        << QStringLiteral("backup state: field `stale` is missing");
    QTest::newRow("backup archive without its size")
        << RoundTrip(roundTrip<BackupStatus>)
        << parse(R"({"enabled":false,"at":null,"folder":null,"keep":null,"next_run_at":null,"last_error":null,
                     "last_backup":{"file":"f.tar.gz","created_at":"2026-11-24 02:30:00"},"stale":false})")
        << QStringLiteral("backup state: field `last_backup` last backup: field `bytes` is missing");
    QTest::newRow("shop setup without the secret")
        << RoundTrip(roundTrip<ShopSetupResult>) << parse(R"({"entity":"shop_setup","key_id":"live_ab"})")
        << QStringLiteral("shop setup: field `key_secret` is missing");
    QTest::newRow("sale upstream without attempts")
        << RoundTrip(roundTrip<SaleUpstream>)
        << parse(R"({"state":"sent","reference_id":"rd-1","transaction_id":null,"error":null})")
        << QStringLiteral("upstream: field `attempts` is missing");
    QTest::newRow("bad item in a list")
        << RoundTrip(roundTrip<Collection<User>>)
        << parse(R"({"entity":"collection","count":1,"items":[{"entity":"user","id":1,"name":"A","role":"clerk"}]})")
        << QStringLiteral("collection: field `items` element 0: user: field `active` is missing");
    QTest::newRow("count disagrees") << RoundTrip(roundTrip<Collection<User>>)
                                     << parse(R"({"entity":"collection","count":2,"items":[]})")
                                     << QStringLiteral("collection: field `count` does not match the number of items");
}

void TestPeopleEntities::missingOrMistypedFieldsAreErrors()
{
    QFETCH(RoundTrip, codec);
    QFETCH(QJsonObject, json);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(codec(json, &error).isEmpty());
    QCOMPARE(error, expected);
}

void TestPeopleEntities::collectionOfUsers()
{
    QString error;
    const std::optional<Collection<User>> users = Collection<User>::fromJson(
        parse(R"({"entity":"collection","count":2,"items":[{"entity":"user","id":1,"name":"A","role":"admin",
                  "active":true},{"entity":"user","id":2,"name":"B","role":"clerk","active":false}]})"),
        &error);
    QVERIFY2(users, qPrintable(error));
    QCOMPARE(users->items.size(), 2);
    QVERIFY(users->items.at(0).isAdmin());
    QVERIFY(!users->items.at(1).active);
    QVERIFY(!users->paged);
    QVERIFY(!users->toJson().contains(QStringLiteral("next_cursor")));
}

void TestPeopleEntities::attemptsLeftTravelsInTheErrorEnvelope()
{
    const ApiError sent = AadhaarAttempts::withLeft(
        ApiError::badRequest(QStringLiteral("otp_value"), QStringLiteral("otp_mismatch"), QStringLiteral("any words")),
        2);
    const QJsonObject envelope = sent.toJson();
    QCOMPARE(envelope.value(QStringLiteral("error")).toObject().value(QStringLiteral("attempts_left")).toInt(), 2);
    const ApiError read = ApiError::fromJson(400, envelope);
    QCOMPARE(AadhaarAttempts::left(read), std::optional<int>(2));
    QCOMPARE(read.reason(), QStringLiteral("otp_mismatch"));
    QCOMPARE(read.toJson(), envelope); // relayed unchanged (a shop passes its upstream's error on)
    QCOMPARE(AadhaarAttempts::left(ApiError::badRequest(QString(), QStringLiteral("x"), QStringLiteral("y"))),
             std::nullopt);
}

QTEST_GUILESS_MAIN(TestPeopleEntities)
#include "tst_peopleentities.moc"

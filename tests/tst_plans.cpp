#include "catalogues.h"
#include "operatorcatalog.h"
#include "plans/plancatalogue.h"
#include "plans/plancataloguestore.h"
#include "rawhttpclient.h"
#include "serverprocess.h"
#include "testserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

using TestCatalogues::builtInBytes;
using TestCatalogues::changedCatalogue;

const QString kLookup = QStringLiteral("/api/v1/plans/mobile/prepaid-plans");
const QString kCatalogue = QStringLiteral("/api/v1/plans/catalogue");

/// The catalogue metadata: the spec's fields for the built-in plan counts, and the origin (issue 13: `source`,
/// no `upstream_host`, an IST `updated_at`).
void checkSummary(QJsonObject summary, const QString &source, const QString &version)
{
    QCOMPARE(summary.take(QStringLiteral("source")), QJsonValue(source));
    QCOMPARE(summary.take(QStringLiteral("upstream_host")), QJsonValue(QString()));
    QVERIFY(IstTime::parse(summary.take(QStringLiteral("updated_at")).toString()).isValid());
    QCOMPARE(summary, (QJsonObject{{QStringLiteral("entity"), QStringLiteral("plan_catalogue")},
                                   {QStringLiteral("catalogue_version"), version},
                                   {QStringLiteral("plans"), 3955},
                                   {QStringLiteral("pairs"), 92}}));
}

QJsonObject lookupBody(const QString &operatorCode, const QString &circleCode)
{
    return QJsonObject{{QStringLiteral("operator_code"), operatorCode}, {QStringLiteral("circle_code"), circleCode}};
}

QSet<QString> keysOf(const QJsonObject &object)
{
    const QStringList keys = object.keys();
    return QSet<QString>(keys.cbegin(), keys.cend());
}

QSet<QString> setOf(std::initializer_list<const char *> names)
{
    QSet<QString> set;
    for (const char *name : names)
        set.insert(QLatin1String(name));
    return set;
}

bool isJsonInteger(const QJsonValue &value)
{
    return value.isDouble() && value.toDouble() == double(value.toInteger());
}

int firstDelhiAmount(const HttpResult &result)
{
    return result.data()
        .value(QStringLiteral("categories"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("items"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("amount"))
        .toInt();
}

} // namespace

class TestPlans final : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_server = std::make_unique<TestServer>(); }
    void cleanup() { m_server.reset(); }

    void everyOperatorAndCircleIsWellFormed()
    {
        // The source file, to check the served catalogue is the whole catalogue.
        QHash<QString, int> plansInFile;
        for (const QJsonValue &entry :
             QJsonDocument::fromJson(builtInBytes()).object().value(QStringLiteral("entries")).toArray()) {
            int plans = 0;
            for (const QJsonValue &category : entry[QStringLiteral("categories")].toArray())
                plans += int(category[QStringLiteral("items")].toArray().size());
            plansInFile.insert(entry[QStringLiteral("operator_code")].toString() +
                                   entry[QStringLiteral("circle_code")].toString(),
                               plans);
        }

        const OperatorCatalog operators = OperatorCatalog::builtIn();
        const QSet<QString> planFields = setOf({"entity", "plan_id", "amount", "validity", "talktime", "benefit",
                                                "calls", "sms", "data", "remark", "subscriptions"});
        const QList<OperatorInfo> mobile = operators.operators(ProductKind::Mobile);
        QCOMPARE(mobile.size(), 4);
        QCOMPARE(operators.circles().size(), 23);
        QSet<qint64> planIds;
        QSet<QByteArray> etags;
        QSet<QString> logos;
        int pairs = 0;
        for (const OperatorInfo &op : mobile) {
            for (const CircleInfo &circle : operators.circles()) {
                const QString pair = op.code + QLatin1Char('/') + circle.code;
                const HttpResult result = m_server->http().postJson(m_server->url(kLookup),
                                                                    lookupBody(op.code, circle.code), m_server->pos());
                QVERIFY2(result.status == 200, qPrintable(pair + QLatin1Char(' ') + QString::fromUtf8(result.body)));
                QCOMPARE(result.header("content-type"), QByteArray("application/json"));
                QCOMPARE(result.header("cache-control"), QByteArray("private, max-age=300"));
                const QByteArray etag = result.header("etag");
                QVERIFY2(etag.size() == 34 && etag.startsWith('"') && etag.endsWith('"'), etag.constData());
                etags.insert(etag);

                QCOMPARE(keysOf(result.json()), setOf({"data"}));
                const QJsonObject data = result.data();
                QCOMPARE(keysOf(data), setOf({"entity", "operator", "circle", "categories"}));
                QCOMPARE(data.value(QStringLiteral("entity")).toString(), QStringLiteral("prepaid_plans"));
                QCOMPARE(data.value(QStringLiteral("operator")).toString(), op.name);
                QCOMPARE(data.value(QStringLiteral("circle")).toString(), circle.name);
                QVERIFY(data.value(QStringLiteral("categories")).isArray());
                const QJsonArray categories = data.value(QStringLiteral("categories")).toArray();
                QVERIFY2(!categories.isEmpty(), qPrintable(pair));
                int plans = 0;
                for (const QJsonValue &categoryValue : categories) {
                    QVERIFY(categoryValue.isObject());
                    const QJsonObject category = categoryValue.toObject();
                    QCOMPARE(keysOf(category), setOf({"entity", "name", "count", "items"}));
                    QCOMPARE(category.value(QStringLiteral("entity")).toString(), QStringLiteral("collection"));
                    QVERIFY(category.value(QStringLiteral("name")).isString());
                    QVERIFY(!category.value(QStringLiteral("name")).toString().isEmpty());
                    QVERIFY(isJsonInteger(category.value(QStringLiteral("count"))));
                    QVERIFY(category.value(QStringLiteral("items")).isArray());
                    const QJsonArray items = category.value(QStringLiteral("items")).toArray();
                    QCOMPARE(category.value(QStringLiteral("count")).toInteger(), items.size());
                    QVERIFY(!items.isEmpty());
                    plans += int(items.size());
                    for (const QJsonValue &planValue : items) {
                        QVERIFY(planValue.isObject());
                        const QJsonObject plan = planValue.toObject();
                        QCOMPARE(keysOf(plan), planFields);
                        QCOMPARE(plan.value(QStringLiteral("entity")).toString(), QStringLiteral("plan"));
                        QVERIFY(isJsonInteger(plan.value(QStringLiteral("plan_id"))));
                        QVERIFY(isJsonInteger(plan.value(QStringLiteral("amount"))));
                        const qint64 planId = plan.value(QStringLiteral("plan_id")).toInteger();
                        QVERIFY2(planId > 0 && !planIds.contains(planId), qPrintable(QString::number(planId)));
                        planIds.insert(planId);
                        const qint64 amount = plan.value(QStringLiteral("amount")).toInteger();
                        QVERIFY2(amount >= op.minRupees && amount <= op.maxRupees, qPrintable(pair));
                        for (const char *field : {"validity", "talktime", "benefit", "calls", "sms", "data", "remark"})
                            QVERIFY2(plan.value(QLatin1String(field)).isString(), field);
                        QVERIFY(!plan.value(QStringLiteral("benefit")).toString().isEmpty());
                        QVERIFY(plan.value(QStringLiteral("subscriptions")).isArray());
                        for (const QJsonValue &subscriptionValue :
                             plan.value(QStringLiteral("subscriptions")).toArray()) {
                            QVERIFY(subscriptionValue.isObject());
                            const QJsonObject subscription = subscriptionValue.toObject();
                            QCOMPARE(keysOf(subscription), setOf({"entity", "name", "description", "logo"}));
                            QCOMPARE(subscription.value(QStringLiteral("entity")).toString(),
                                     QStringLiteral("subscription"));
                            for (const char *field : {"name", "description", "logo"}) {
                                QVERIFY2(subscription.value(QLatin1String(field)).isString(), field);
                                QVERIFY2(!subscription.value(QLatin1String(field)).toString().isEmpty(), field);
                            }
                            logos.insert(subscription.value(QStringLiteral("logo")).toString());
                        }
                    }
                }
                QCOMPARE(plans, plansInFile.value(op.code + circle.code));
                ++pairs;
            }
        }
        QCOMPARE(pairs, 92);
        QCOMPARE(planIds.size(), 3955);
        QCOMPARE(etags.size(), 92);

        // Every logo a plan names is served, without credentials.
        QVERIFY(!logos.isEmpty());
        for (const QString &logo : std::as_const(logos)) {
            const HttpResult result =
                m_server->http().get(m_server->url(QStringLiteral("/api/v1/plans/logos/") + logo));
            QVERIFY2(result.status == 200, qPrintable(logo));
        }
    }

    void etagGives304()
    {
        HttpClient &http = m_server->http();
        const HttpResult first = http.postJson(m_server->url(kLookup),
                                               lookupBody(QStringLiteral("RJ"), QStringLiteral("MU")), m_server->pos());
        QCOMPARE(first.status, 200);
        const QByteArray etag = first.header("etag");
        QVERIFY(!etag.isEmpty());

        const auto lookup = [&](const QString &op, const QString &circle, const QByteArray &ifNoneMatch) {
            return http.send("POST", m_server->url(kLookup),
                             QJsonDocument(lookupBody(op, circle)).toJson(QJsonDocument::Compact),
                             {{"Content-Type", "application/json"},
                              {"Authorization", m_server->pos()},
                              {"If-None-Match", ifNoneMatch}});
        };
        for (const QByteArray &condition : QByteArrayList{etag, "W/" + etag, "\"nope\", " + etag, "*"}) {
            const HttpResult again = lookup(QStringLiteral("RJ"), QStringLiteral("MU"), condition);
            QVERIFY2(again.status == 304, condition.constData());
            QVERIFY(again.body.isEmpty());
            QCOMPARE(again.header("etag"), etag);
            QCOMPARE(again.header("cache-control"), QByteArray("private, max-age=300"));
        }
        // Another pair's ETag, or a stale one, gets the full answer.
        const HttpResult other = lookup(QStringLiteral("RJ"), QStringLiteral("DL"), etag);
        QCOMPARE(other.status, 200);
        QVERIFY(other.header("etag") != etag);
        const HttpResult stale = lookup(QStringLiteral("RJ"), QStringLiteral("MU"), "\"0000\"");
        QCOMPARE(stale.status, 200);
        QCOMPARE(stale.body, first.body);
    }

    void badCodesName400Field_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");

        QTest::newRow("operator missing") << QByteArray(R"({"circle_code":"DL"})") << QStringLiteral("operator_code")
                                          << QStringLiteral("missing_field");
        QTest::newRow("operator blank") << QByteArray(R"({"operator_code":"  ","circle_code":"DL"})")
                                        << QStringLiteral("operator_code") << QStringLiteral("missing_field");
        QTest::newRow("operator unknown") << QByteArray(R"({"operator_code":"XX","circle_code":"DL"})")
                                          << QStringLiteral("operator_code") << QStringLiteral("unknown_operator");
        QTest::newRow("operator lower case") << QByteArray(R"({"operator_code":"at","circle_code":"DL"})")
                                             << QStringLiteral("operator_code") << QStringLiteral("unknown_operator");
        QTest::newRow("DTH operator") << QByteArray(R"({"operator_code":"TS","circle_code":"DL"})")
                                      << QStringLiteral("operator_code") << QStringLiteral("unknown_operator");
        QTest::newRow("operator a number") << QByteArray(R"({"operator_code":12,"circle_code":"DL"})")
                                           << QStringLiteral("operator_code") << QStringLiteral("invalid_type");
        QTest::newRow("circle missing") << QByteArray(R"({"operator_code":"AT"})") << QStringLiteral("circle_code")
                                        << QStringLiteral("missing_field");
        QTest::newRow("circle unknown") << QByteArray(R"({"operator_code":"AT","circle_code":"ZZ"})")
                                        << QStringLiteral("circle_code") << QStringLiteral("unknown_circle");
        QTest::newRow("circle three letters") << QByteArray(R"({"operator_code":"AT","circle_code":"DEL"})")
                                              << QStringLiteral("circle_code") << QStringLiteral("unknown_circle");
        QTest::newRow("circle an array") << QByteArray(R"({"operator_code":"AT","circle_code":["DL"]})")
                                         << QStringLiteral("circle_code") << QStringLiteral("invalid_type");
        QTest::newRow("malformed JSON") << QByteArray(R"({"operator_code":"AT",)") << QString()
                                        << QStringLiteral("malformed_json");
        QTest::newRow("not an object") << QByteArray(R"(["AT","DL"])") << QString()
                                       << QStringLiteral("body_not_object");
    }
    void badCodesName400Field()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const HttpResult result =
            m_server->http().send("POST", m_server->url(kLookup), body,
                                  {{"Content-Type", "application/json"}, {"Authorization", m_server->pos()}});
        QCOMPARE(result.status, 400);
        const QJsonObject error = result.error();
        QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("BAD_REQUEST_ERROR"));
        QCOMPARE(error.value(QStringLiteral("reason")).toString(), reason);
        if (field.isEmpty())
            QVERIFY(error.value(QStringLiteral("field")).isNull());
        else
            QCOMPARE(error.value(QStringLiteral("field")).toString(), field);
    }

    void lookupNeedsAKey()
    {
        const HttpResult result =
            m_server->http().postJson(m_server->url(kLookup), lookupBody(QStringLiteral("AT"), QStringLiteral("DL")));
        QCOMPARE(result.status, 401);
    }

    void logoIsServed()
    {
        QFile source(QStringLiteral(":/plans/logos/netflix.svg"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray svg = source.readAll();

        HttpClient &http = m_server->http();
        const HttpResult result = http.get(m_server->url(QStringLiteral("/api/v1/plans/logos/netflix.svg")));
        QCOMPARE(result.status, 200);
        QCOMPARE(result.header("content-type"), QByteArray("image/svg+xml"));
        QCOMPARE(result.body, svg);
        QVERIFY(result.header("cache-control").contains("max-age="));
        const QByteArray etag = result.header("etag");
        QVERIFY(etag.startsWith('"'));

        const HttpResult cached = http.send("GET", m_server->url(QStringLiteral("/api/v1/plans/logos/netflix.svg")), {},
                                            {{"If-None-Match", etag}});
        QCOMPARE(cached.status, 304);
        QVERIFY(cached.body.isEmpty());
    }

    void unknownOrTraversalLogoIs404_data()
    {
        QTest::addColumn<QByteArray>("encodedPath");
        QTest::newRow("unknown") << QByteArray("/api/v1/plans/logos/nosuch.svg");
        QTest::newRow("catalogue beside the logos") << QByteArray("/api/v1/plans/logos/..%2Fplans.json");
        QTest::newRow("encoded dots") << QByteArray("/api/v1/plans/logos/%2E%2E%2F%2E%2E%2Fdata%2Foperators.json");
        QTest::newRow("dot dot segment") << QByteArray("/api/v1/plans/logos/../plans.json");
        QTest::newRow("absolute") << QByteArray("/api/v1/plans/logos/%2Fetc%2Fpasswd");
        QTest::newRow("empty name") << QByteArray("/api/v1/plans/logos/");
        QTest::newRow("nested") << QByteArray("/api/v1/plans/logos/x/netflix.svg");
    }
    void unknownOrTraversalLogoIs404()
    {
        QFETCH(QByteArray, encodedPath);
        QUrl url = m_server->url(QString());
        url.setPath(QString::fromLatin1(encodedPath), QUrl::TolerantMode);
        const HttpResult result = m_server->http().get(url);
        QCOMPARE(result.status, 404);
        QCOMPARE(result.header("content-type"), QByteArray("application/json"));
        QVERIFY(!result.body.contains("<svg"));
    }

    void importThroughTheEndpoint()
    {
        HttpClient &http = m_server->http();
        const auto put = [&](const QByteArray &body, const QByteArray &key) {
            return http.send("PUT", m_server->url(kCatalogue), body,
                             {{"Content-Type", "application/json"}, {"Authorization", key}});
        };
        const auto delhi = [&] {
            return http.postJson(m_server->url(kLookup), lookupBody(QStringLiteral("AT"), QStringLiteral("DL")),
                                 m_server->pos());
        };
        const HttpResult before = delhi();
        QCOMPARE(before.status, 200);
        const HttpResult summary = http.get(m_server->url(kCatalogue), m_server->pos());
        QCOMPARE(summary.status, 200);
        checkSummary(summary.data(), QStringLiteral("shipped with the program"), QStringLiteral("2025.1"));
        if (QTest::currentTestFailed())
            return;

        const QByteArray good = changedCatalogue(QStringLiteral("2099.7"), 111);
        QVERIFY(good.size() > 64 * 1024); // over the usual body limit

        // A pos key may read the summary but not replace the catalogue.
        QCOMPARE(put(good, m_server->pos()).status, 403);
        QCOMPARE(put(good, m_server->admin()).status, 403); // a test admin key alone: not live authority

        // A bad file: 400 naming the path, and the old catalogue is still served.
        QJsonObject broken = QJsonDocument::fromJson(good).object();
        QJsonArray entries = broken.value(QStringLiteral("entries")).toArray();
        QJsonObject entry = entries.at(7).toObject();
        entry[QStringLiteral("circle_code")] = QStringLiteral("QQ");
        entries[7] = entry;
        broken[QStringLiteral("entries")] = entries;
        const HttpResult bad = put(QJsonDocument(broken).toJson(QJsonDocument::Compact), m_server->liveAdmin());
        QCOMPARE(bad.status, 400);
        QCOMPARE(bad.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_catalogue"));
        QCOMPARE(bad.error().value(QStringLiteral("field")).toString(), QStringLiteral("entries[7].circle_code"));
        QVERIFY2(bad.error()
                     .value(QStringLiteral("description"))
                     .toString()
                     .contains(QStringLiteral("entries[7].circle_code: unknown circle")),
                 bad.body.constData());

        const HttpResult syntax = put("{\n\"catalogue_version\": \"x\",\n\"entries\": [,]\n}", m_server->liveAdmin());
        QCOMPARE(syntax.status, 400);
        QVERIFY2(syntax.error().value(QStringLiteral("description")).toString().contains(QStringLiteral("line 3")),
                 syntax.body.constData());

        QCOMPARE(delhi().body, before.body);
        QCOMPARE(http.get(m_server->url(kCatalogue), m_server->pos()).data().value(QStringLiteral("catalogue_version")),
                 QJsonValue(QStringLiteral("2025.1")));
        QVERIFY(!QFile::exists(PlanCatalogueStore::catalogueFile(m_server->dataDir())));

        // A good file: installed whole, served at once, kept in the data directory.
        const HttpResult installed = put(good, m_server->liveAdmin());
        QCOMPARE(installed.status, 200);
        checkSummary(installed.data(), QStringLiteral("imported"), QStringLiteral("2099.7"));
        if (QTest::currentTestFailed())
            return;
        const HttpResult after = delhi();
        QCOMPARE(after.status, 200);
        QCOMPARE(firstDelhiAmount(before) == 111, false);
        QCOMPARE(firstDelhiAmount(after), 111);
        QVERIFY(after.header("etag") != before.header("etag"));
        QFile file(PlanCatalogueStore::catalogueFile(m_server->dataDir()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), good);

        // Only the import endpoint takes big bodies.
        const HttpResult tooBig = http.send("POST", m_server->url(kLookup), good,
                                            {{"Content-Type", "application/json"}, {"Authorization", m_server->pos()}});
        QCOMPARE(tooBig.status, 413);
    }

    // Issue 12: the catalogue's 8 MiB allowance is for admin credentials only, checked at the head; anyone else
    // gets the API's answer before the body is read (20 such unfinished uploads once took 325 MB).
    void largeUploadWithoutAdminKeyRefusedAtHead_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no key") << QByteArray() << 401 << QStringLiteral("missing_credentials");
        QTest::newRow("wrong secret") << QByteArray("Basic dGVzdF9ub2JvZHk6d3Jvbmc=") << 401
                                      << QStringLiteral("invalid_credentials");
        QTest::newRow("pos key") << QByteArray("pos") << 403 << QStringLiteral("admin_scope_required");
    }
    void largeUploadWithoutAdminKeyRefusedAtHead()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(int, status);
        QFETCH(QString, reason);
        if (authorization == "pos")
            authorization = m_server->pos();

        constexpr qint64 bodyBytes = 8 * 1024 * 1024 - 1; // within the catalogue's limit
        RawHttpClient client(m_server->server().port());
        QVERIFY(client.waitForConnected());
        client.send(rawRequestHead("PUT", "/api/v1/plans/catalogue", bodyBytes, "application/json", authorization));
        const qint64 sent = client.streamUntilAnswered(bodyBytes);
        RawHttpResponse response;
        QVERIFY(client.waitForResponse(response));
        QCOMPARE(response.status, status);
        QCOMPARE(QJsonDocument::fromJson(response.body)
                     .object()
                     .value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("reason"))
                     .toString(),
                 reason);
        QCOMPARE(response.header("Connection"), QByteArray("close"));
        QVERIFY(client.waitForServerClose());
        qInfo("client sent %lld of %lld body bytes before the answer", static_cast<long long>(sent),
              static_cast<long long>(bodyBytes));
        // Loopback socket buffers absorb a few MiB before the client sees the answer; on the old code it sent all.
        QVERIFY2(sent <= bodyBytes / 2,
                 qPrintable(QStringLiteral("the client sent %1 body bytes before the answer").arg(sent)));
        // Still the catalogue it was.
        QCOMPARE(m_server->http()
                     .get(m_server->url(kCatalogue), m_server->pos())
                     .data()
                     .value(QStringLiteral("catalogue_version")),
                 QJsonValue(QStringLiteral("2025.1")));
    }

    // The admin's upload of a few MiB still goes through (the allowance is granted at the head, the buffer grows).
    void adminUploadOfSeveralMiB()
    {
        QByteArray big = changedCatalogue(QStringLiteral("2099.9"), 133);
        big.append(QByteArray(3 * 1024 * 1024, ' ')); // JSON allows trailing white space
        const HttpResult installed =
            m_server->http().send("PUT", m_server->url(kCatalogue), big,
                                  {{"Content-Type", "application/json"}, {"Authorization", m_server->liveAdmin()}});
        QCOMPARE(installed.status, 200);
        QCOMPARE(installed.data().value(QStringLiteral("catalogue_version")), QJsonValue(QStringLiteral("2099.9")));
    }

    void serverStartsFromTheImportedFile()
    {
        QTemporaryDir dataDir;
        QString error;
        QVERIFY(PlanCatalogueStore::importFile(dataDir.path(), changedCatalogue(QStringLiteral("2099.8"), 122),
                                               OperatorCatalog::builtIn(), &error));
        ServerOptions options = TestServer::defaultOptions();
        options.dataDir = dataDir.path();
        TestServer server(options);
        QCOMPARE(
            server.http().get(server.url(kCatalogue), server.pos()).data().value(QStringLiteral("catalogue_version")),
            QJsonValue(QStringLiteral("2099.8")));
        QCOMPARE(firstDelhiAmount(server.http().postJson(
                     server.url(kLookup), lookupBody(QStringLiteral("AT"), QStringLiteral("DL")), server.pos())),
                 122);
    }

    void importThroughTheCli()
    {
        m_server.reset();
        QTemporaryDir work;
        const TestStore store; // the data directory and database of the server process
        const QString dataDir = store.path();
        // A pos key made beforehand (the server then prints none at start).
        QString keyOutput;
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("keys"), QStringLiteral("create"),
                                                   QStringLiteral("--name"), QStringLiteral("plans"),
                                                   QStringLiteral("--mode"), QStringLiteral("test"),
                                                   QStringLiteral("--scope"), QStringLiteral("pos")} +
                                           store.arguments(),
                                       &keyOutput),
                 0);
        const QRegularExpressionMatch keyMatch =
            QRegularExpression(QStringLiteral("key_id: (\\S+)\\s+key_secret: (\\S+)")).match(keyOutput);
        QVERIFY2(keyMatch.hasMatch(), qPrintable(keyOutput));
        const QByteArray key = HttpClient::basic(keyMatch.captured(1), keyMatch.captured(2));
        ServerProcess process;
        QString error;
        QVERIFY2(process.start(store, {}, &error), qPrintable(error));
        HttpClient http;
        const auto version = [&] {
            QUrl url = process.url();
            url.setPath(kCatalogue);
            return http.get(url, key).data().value(QStringLiteral("catalogue_version")).toString();
        };
        QCOMPARE(version(), QStringLiteral("2025.1"));

        // A bad file: non-zero exit, the error names the path, nothing installed.
        QJsonObject broken = QJsonDocument::fromJson(builtInBytes()).object();
        QJsonArray entries = broken.value(QStringLiteral("entries")).toArray();
        entries.removeAt(91);
        broken[QStringLiteral("entries")] = entries;
        const QString badFile = work.filePath(QStringLiteral("bad.json"));
        QFile bad(badFile);
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QJsonDocument(broken).toJson(QJsonDocument::Indented));
        bad.close();
        QString output;
        const int badExit = ServerProcess::runCli(
            {QStringLiteral("plans"), QStringLiteral("import"), badFile, QStringLiteral("--data-dir"), dataDir},
            &output);
        QVERIFY2(badExit != 0, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("entries: 1 of the 92 (operator, circle) pairs are missing: (RJ, WB)")),
                 qPrintable(output));
        QVERIFY(!QFile::exists(PlanCatalogueStore::catalogueFile(dataDir)));

        QFile syntaxFile(work.filePath(QStringLiteral("syntax.json")));
        QVERIFY(syntaxFile.open(QIODevice::WriteOnly));
        syntaxFile.write("{\n  \"catalogue_version\": \"x\",\n  \"entries\": [\n    {]\n}\n");
        syntaxFile.close();
        QVERIFY(ServerProcess::runCli({QStringLiteral("plans"), QStringLiteral("import"), syntaxFile.fileName(),
                                       QStringLiteral("--data-dir"), dataDir},
                                      &output) != 0);
        QVERIFY2(output.contains(QStringLiteral("line 4, column")), qPrintable(output));
        QVERIFY(!QFile::exists(PlanCatalogueStore::catalogueFile(dataDir)));
        QCOMPARE(version(), QStringLiteral("2025.1"));

        // A good file: installed, and the running server swaps it in without a restart.
        const QString goodFile = work.filePath(QStringLiteral("good.json"));
        QFile good(goodFile);
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(changedCatalogue(QStringLiteral("2099.9"), 133));
        good.close();
        const int goodExit = ServerProcess::runCli(
            {QStringLiteral("plans"), QStringLiteral("import"), goodFile, QStringLiteral("--data-dir"), dataDir},
            &output);
        QVERIFY2(goodExit == 0, qPrintable(output));
        QVERIFY(QFile::exists(PlanCatalogueStore::catalogueFile(dataDir)));
        QTRY_COMPARE_WITH_TIMEOUT(version(), QStringLiteral("2099.9"), 10'000);
        process.terminate();
    }

private:
    std::unique_ptr<TestServer> m_server;
};

QTEST_MAIN(TestPlans)
#include "tst_plans.moc"

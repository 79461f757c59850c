#include "http/apirouter.h"
#include "testserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMetaEnum>
#include <QTest>

namespace {

QString methodName(QHttpServerRequest::Method method)
{
    return QString::fromLatin1(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(int(method))).toLower();
}

QJsonObject servedDocument(TestServer &server)
{
    return server.http().get(server.url(QStringLiteral("/api/v1/openapi.json"))).json();
}

} // namespace

/// Issue 14: the API reference docs/api/openapi.yaml is served at GET /api/v1/openapi.json, and it names every
/// route of the router, no more and no less, with the routes' authentication (the answers themselves are checked
/// against it by the api_contract test).
class TestOpenApi final : public QObject
{
    Q_OBJECT

private slots:
    void servesTheDocumentWithoutCredentials()
    {
        TestServer server;
        const HttpResult result = server.http().get(server.url(QStringLiteral("/api/v1/openapi.json")));
        QCOMPARE(result.status, 200);
        QCOMPARE(result.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(result.header("Cache-Control"), QByteArray("public, max-age=3600"));
        QVERIFY(!result.header("X-Request-Id").isEmpty());
        QFile built(QStringLiteral(":/api/openapi.json"));
        QVERIFY(built.open(QIODevice::ReadOnly));
        QCOMPARE(result.body, built.readAll());
        const QJsonObject document = result.json();
        QCOMPARE(document.value(QStringLiteral("openapi")).toString(), QStringLiteral("3.1.0"));
        QCOMPARE(document.value(QStringLiteral("info")).toObject().value(QStringLiteral("title")).toString(),
                 QStringLiteral("RechargeDesk API"));
    }

    void answersNotModifiedToItsETag()
    {
        TestServer server;
        const QUrl url = server.url(QStringLiteral("/api/v1/openapi.json"));
        const QByteArray etag = server.http().get(url).header("ETag");
        QVERIFY(etag.startsWith('"') && etag.endsWith('"') && etag.size() > 2);
        const HttpResult again = server.http().send("GET", url, {}, {{"If-None-Match", etag}});
        QCOMPARE(again.status, 304);
        QVERIFY(again.body.isEmpty());
        QCOMPARE(again.header("ETag"), etag);
        const HttpResult other = server.http().send("GET", url, {}, {{"If-None-Match", "\"0000\""}});
        QCOMPARE(other.status, 200);
    }

    void documentsEveryRouteAndNoOther()
    {
        TestServer server;
        const QJsonObject paths = servedDocument(server).value(QStringLiteral("paths")).toObject();
        QStringList routes;
        QStringList wrongSecurity;
        for (const ApiRouter::RouteInfo &route : server.server().router().routes()) {
            const QString method = methodName(route.method);
            routes.append(method + QLatin1Char(' ') + route.pattern);
            const QJsonObject operation = paths.value(route.pattern).toObject().value(method).toObject();
            // Public routes say `security: []`; every other one uses the document's default (key, or key and session).
            const bool documentedPublic = operation.contains(QStringLiteral("security")) &&
                                          operation.value(QStringLiteral("security")).toArray().isEmpty();
            if (!operation.isEmpty() && documentedPublic != (route.access == Access::Public))
                wrongSecurity.append(method + QLatin1Char(' ') + route.pattern);
        }
        QStringList documented;
        for (auto path = paths.constBegin(); path != paths.constEnd(); ++path) {
            for (const QString &method : path.value().toObject().keys()) {
                if (method != QLatin1String("parameters"))
                    documented.append(method + QLatin1Char(' ') + path.key());
            }
        }
        routes.sort();
        documented.sort();
        QCOMPARE(documented, routes);
        QVERIFY2(wrongSecurity.isEmpty(), qPrintable(wrongSecurity.join(QStringLiteral(", "))));
    }
};

QTEST_GUILESS_MAIN(TestOpenApi)
#include "tst_openapi.moc"

// webhook_sign_sample: runs the real API server and a receiver in one process, lets the product
// deliver real webhooks (a mobile, a voucher and a DTH event; the last one during a secret
// rotation) and prints what the receiver got, with the secrets, as JSON on stdout. verify.mjs
// checks them with the npm `standardwebhooks` library (issue 4, cross-check).
#include "httpclient.h"
#include "testreceiver.h"
#include "testserver.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cstdio>

namespace {

QJsonObject hookJson(const ReceivedHook &hook, const QStringList &secrets)
{
    return QJsonObject{{QStringLiteral("headers"),
                        QJsonObject{{QStringLiteral("webhook-id"), QString::fromLatin1(hook.webhookId)},
                                    {QStringLiteral("webhook-timestamp"), QString::fromLatin1(hook.timestamp)},
                                    {QStringLiteral("webhook-signature"), QString::fromLatin1(hook.signature)},
                                    {QStringLiteral("content-type"), QString::fromLatin1(hook.contentType)},
                                    {QStringLiteral("user-agent"), QString::fromLatin1(hook.userAgent)}}},
                       {QStringLiteral("body"), QString::fromUtf8(hook.body)},
                       {QStringLiteral("secrets"), QJsonArray::fromStringList(secrets)}};
}

int fail(const char *what)
{
    std::fprintf(stderr, "webhook_sign_sample: %s\n", what);
    return 1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    ServerOptions options = TestServer::defaultOptions();
    options.settleDelayMs = 20;
    TestServer server(options);
    TestReceiver receiver;
    HttpClient &http = server.http();
    const auto put = [&](const QJsonObject &body) {
        return http.send("PUT", server.url(QStringLiteral("/api/v1/webhook-endpoint")), QJsonDocument(body).toJson(),
                         {{"Content-Type", "application/json"}, {"Authorization", server.admin()}});
    };
    const QString first = put({{QStringLiteral("url"), receiver.url().toString()},
                               {QStringLiteral("webhook_password"), QStringLiteral("pw-crosscheck")}})
                              .data()
                              .value(QStringLiteral("secret"))
                              .toString();
    if (first.isEmpty())
        return fail("cannot set the endpoint");

    http.postJson(server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                  {{QStringLiteral("phone_number"), QStringLiteral("9876541111")},
                   {QStringLiteral("amount"), QStringLiteral("249")},
                   {QStringLiteral("operator_code"), QStringLiteral("RJ")}},
                  server.pos());
    http.postJson(server.url(QStringLiteral("/api/v1/voucher/appstore/initiate-transaction")),
                  {{QStringLiteral("amount"), 500},
                   {QStringLiteral("customer_email"), QStringLiteral("ravi+pending@example.com")}},
                  server.pos());
    if (!QTest::qWaitFor([&] { return receiver.accepted().size() == 2; }, 15'000))
        return fail("the first two webhooks did not arrive");

    const QString second =
        http.postJson(server.url(QStringLiteral("/api/v1/webhook-endpoint/rotate-secret")), {}, server.admin())
            .data()
            .value(QStringLiteral("secret"))
            .toString();
    http.postJson(server.url(QStringLiteral("/api/v1/recharge/dth/initiate-transaction")),
                  {{QStringLiteral("number"), QStringLiteral("1012341111")},
                   {QStringLiteral("amount"), 300},
                   {QStringLiteral("operator_code"), QStringLiteral("TS")}},
                  server.pos());
    if (second.isEmpty() || !QTest::qWaitFor([&] { return receiver.accepted().size() == 3; }, 15'000))
        return fail("the webhook after the rotation did not arrive");

    QJsonArray deliveries;
    deliveries.append(hookJson(receiver.accepted().at(0), {first}));
    deliveries.append(hookJson(receiver.accepted().at(1), {first}));
    deliveries.append(hookJson(receiver.accepted().at(2), {second, first})); // both sign during the rotation
    std::fputs(QJsonDocument(QJsonObject{{QStringLiteral("deliveries"), deliveries}}).toJson().constData(), stdout);
    return 0;
}

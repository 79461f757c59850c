// Clock everywhere (issue 14): the answers that depend on "now" follow the server's Clock, not the machine's
// time, so a ManualClock decides them. The ManualClock sits in 2025, far from the machine's date.
#include "testserver.h"

#include <QTest>

namespace {

/// 2025-03-31 19:00 UTC: in IST already 1 April, 00:30.
QDateTime lateEveningUtc()
{
    return QDateTime(QDate(2025, 3, 31), QTime(19, 0), Qt::UTC);
}

} // namespace

class TestBackendClock final : public QObject
{
    Q_OBJECT

private slots:
    void dayEndTodayIsTheClocksIstDate()
    {
        ManualClock clock(lateEveningUtc());
        TestServer server(TestServer::defaultOptions(), &clock);
        const HttpResult topup = server.http().postJson(
            server.url(QStringLiteral("/api/v1/wallet/topups")),
            QJsonObject{{QStringLiteral("amount"), 1'000}, {QStringLiteral("note"), QStringLiteral("opening cash")}},
            server.admin());
        QCOMPARE(topup.status, 201);

        // No date asked: "today" in IST on the server's clock (the UTC date is still 31 March).
        const HttpResult report =
            server.http().get(server.url(QStringLiteral("/api/v1/reports/day-end")), server.admin());
        QCOMPARE(report.status, 200);
        QCOMPARE(report.data().value(QStringLiteral("date")).toString(), QStringLiteral("2025-04-01"));
        const QJsonObject wallet = report.data().value(QStringLiteral("wallet")).toObject();
        // The test wallet's ₹10000 opening credit was made at the clock's now too, so both count today.
        QCOMPARE(wallet.value(QStringLiteral("topups")).toString(), QStringLiteral("₹11000.00"));
        QCOMPARE(wallet.value(QStringLiteral("opening")).toString(), QStringLiteral("₹0.00"));

        // A day later on the clock, today is 2 April and yesterday's money is the opening balance.
        clock.advanceMs(24LL * 3600 * 1000);
        const HttpResult next =
            server.http().get(server.url(QStringLiteral("/api/v1/reports/day-end")), server.admin());
        QCOMPARE(next.data().value(QStringLiteral("date")).toString(), QStringLiteral("2025-04-02"));
        QCOMPARE(next.data().value(QStringLiteral("wallet")).toObject().value(QStringLiteral("opening")).toString(),
                 QStringLiteral("₹11000.00"));
    }

    void previousWebhookSecretExpiresOnTheClock()
    {
        ManualClock clock(lateEveningUtc());
        TestServer server(TestServer::defaultOptions(), &clock);
        const QUrl endpoint = server.url(QStringLiteral("/api/v1/webhook-endpoint"));
        QCOMPARE(server.http().get(endpoint, server.admin()).status, 200); // the built-in inbox, test mode
        const HttpResult rotated = server.http().postJson(
            server.url(QStringLiteral("/api/v1/webhook-endpoint/rotate-secret")), {}, server.admin());
        QCOMPARE(rotated.status, 200);
        // The old secret stays valid for 24 h from the clock's now.
        QCOMPARE(rotated.data().value(QStringLiteral("previous_secret_expires_at")).toString(),
                 QStringLiteral("2025-04-02 00:30:00"));
        QCOMPARE(server.http().get(endpoint, server.admin()).data().value(QStringLiteral("previous_secret_expires_at")),
                 QJsonValue(QStringLiteral("2025-04-02 00:30:00")));

        clock.advanceMs(24LL * 3600 * 1000 + 1000);
        QVERIFY(server.http()
                    .get(endpoint, server.admin())
                    .data()
                    .value(QStringLiteral("previous_secret_expires_at"))
                    .isNull());
    }
};

QTEST_GUILESS_MAIN(TestBackendClock)
#include "tst_backendclock.moc"

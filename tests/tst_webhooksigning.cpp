// Pure parts of the webhooks (issue 4): the Standard Webhooks signer, the SSRF address guard
// and the retry schedule.
#include "webhooks/addressguard.h"
#include "webhooks/retryschedule.h"
#include "webhooks/webhooksigner.h"

#include <QTest>

class TestWebhookSigning final : public QObject
{
    Q_OBJECT

private slots:
    void sign_data()
    {
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QByteArray>("id");
        QTest::addColumn<qint64>("timestamp");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("signature");
        // The example of the Standard Webhooks specification.
        QTest::newRow("standard webhooks example")
            << QStringLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") << QByteArray("msg_p5jXN8AQM9LWM0D4loKWxJek")
            << qint64(1614265330) << QByteArray(R"({"test": 2432232314})")
            << QByteArray("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        QTest::newRow("malformed secret signs nothing")
            << QStringLiteral("sk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") << QByteArray("msg_1") << qint64(1)
            << QByteArray("{}") << QByteArray();
    }
    void sign()
    {
        QFETCH(QString, secret);
        QFETCH(QByteArray, id);
        QFETCH(qint64, timestamp);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, signature);
        QCOMPARE(WebhookSigner::sign(secret, id, timestamp, body), signature);
        if (!signature.isEmpty()) {
            QVERIFY(WebhookSigner::verify(signature, {secret}, id, timestamp, body));
            QVERIFY(!WebhookSigner::verify(signature, {secret}, id, timestamp + 1, body));
            QVERIFY(!WebhookSigner::verify(signature, {secret}, id, timestamp, body + ' '));
        }
    }

    void rotationHeaderCarriesBothSignatures()
    {
        const QString oldSecret = WebhookSigner::newSecret();
        const QString newSecret = WebhookSigner::newSecret();
        const QByteArray header = WebhookSigner::signatureHeader({newSecret, oldSecret}, "msg_x", 1700000000, "{}");
        const QByteArrayList parts = header.split(' ');
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts.at(0), WebhookSigner::sign(newSecret, "msg_x", 1700000000, "{}"));
        QCOMPARE(parts.at(1), WebhookSigner::sign(oldSecret, "msg_x", 1700000000, "{}"));
        QVERIFY(WebhookSigner::verify(header, {oldSecret}, "msg_x", 1700000000, "{}"));
        QVERIFY(WebhookSigner::verify(header, {newSecret}, "msg_x", 1700000000, "{}"));
        QVERIFY(!WebhookSigner::verify(header, {WebhookSigner::newSecret()}, "msg_x", 1700000000, "{}"));
    }

    void timestampIsPlainUnixSeconds_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<qint64>("seconds"); // -1: refused
        QTest::newRow("now") << QByteArray("1763900000") << qint64(1763900000);
        QTest::newRow("leading zero") << QByteArray("01763900000") << qint64(1763900000);
        QTest::newRow("twelve digits") << QByteArray("999999999999") << qint64(999999999999);
        QTest::newRow("thirteen digits (milliseconds)") << QByteArray("1763900000000") << qint64(-1);
        QTest::newRow("plus sign") << QByteArray("+1763900000") << qint64(-1);
        QTest::newRow("minus sign") << QByteArray("-1") << qint64(-1);
        QTest::newRow("smallest qint64") << QByteArray("-9223372036854775808") << qint64(-1);
        QTest::newRow("blank inside") << QByteArray(" 1763900000") << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
        QTest::newRow("hex") << QByteArray("0x10") << qint64(-1);
    }
    void timestampIsPlainUnixSeconds()
    {
        QFETCH(QByteArray, header);
        QFETCH(qint64, seconds);
        QCOMPARE(WebhookSigner::parseTimestamp(header).value_or(-1), seconds);
    }

    void newSecretsAreStandardAndDistinct()
    {
        const QString a = WebhookSigner::newSecret();
        QVERIFY(a.startsWith(QLatin1String("whsec_")));
        QCOMPARE(WebhookSigner::secretKey(a)->size(), WebhookSigner::kSecretBytes);
        QVERIFY(a != WebhookSigner::newSecret());
    }

    void addressGuard_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("reason");
        QTest::newRow("public v4") << QStringLiteral("93.184.216.34") << QString();
        QTest::newRow("public v6") << QStringLiteral("2606:2800:220:1:248:1893:25c8:1946") << QString();
        QTest::newRow("172.15 is public") << QStringLiteral("172.15.255.255") << QString();
        QTest::newRow("100.128 is public") << QStringLiteral("100.128.0.1") << QString();
        QTest::newRow("loopback") << QStringLiteral("127.0.0.1") << QStringLiteral("loopback");
        QTest::newRow("loopback 127/8") << QStringLiteral("127.1.2.3") << QStringLiteral("loopback");
        QTest::newRow("10/8") << QStringLiteral("10.0.0.1") << QStringLiteral("private");
        QTest::newRow("172.16/12 low") << QStringLiteral("172.16.0.1") << QStringLiteral("private");
        QTest::newRow("172.16/12 high") << QStringLiteral("172.31.255.254") << QStringLiteral("private");
        QTest::newRow("192.168/16") << QStringLiteral("192.168.1.10") << QStringLiteral("private");
        QTest::newRow("link-local v4") << QStringLiteral("169.254.169.254") << QStringLiteral("link-local");
        QTest::newRow("CGNAT") << QStringLiteral("100.64.0.1") << QStringLiteral("carrier-grade NAT");
        QTest::newRow("unspecified v4") << QStringLiteral("0.0.0.0") << QStringLiteral("unspecified");
        QTest::newRow("multicast v4") << QStringLiteral("224.0.0.251") << QStringLiteral("multicast");
        QTest::newRow("broadcast") << QStringLiteral("255.255.255.255") << QStringLiteral("broadcast");
        QTest::newRow("loopback v6") << QStringLiteral("::1") << QStringLiteral("loopback");
        QTest::newRow("unspecified v6") << QStringLiteral("::") << QStringLiteral("unspecified");
        QTest::newRow("link-local v6") << QStringLiteral("fe80::1") << QStringLiteral("link-local");
        QTest::newRow("unique-local fd") << QStringLiteral("fd12:3456::1") << QStringLiteral("unique-local");
        QTest::newRow("unique-local fc") << QStringLiteral("fc00::1") << QStringLiteral("unique-local");
        QTest::newRow("multicast v6") << QStringLiteral("ff02::1") << QStringLiteral("multicast");
        QTest::newRow("v4-mapped loopback") << QStringLiteral("::ffff:127.0.0.1") << QStringLiteral("loopback");
        QTest::newRow("v4-mapped private") << QStringLiteral("::ffff:10.1.2.3") << QStringLiteral("private");
        QTest::newRow("NAT64 of private") << QStringLiteral("64:ff9b::c0a8:0101") << QStringLiteral("private");
        QTest::newRow("6to4 of loopback") << QStringLiteral("2002:7f00:0001::1") << QStringLiteral("loopback");
        // Issue 12: the remaining special-purpose ranges (IANA registries) and every IPv6 form
        // that carries an IPv4 address.
        QTest::newRow("this network 0/8") << QStringLiteral("0.1.2.3") << QStringLiteral("unspecified");
        QTest::newRow("CGNAT high") << QStringLiteral("100.127.255.254") << QStringLiteral("carrier-grade NAT");
        QTest::newRow("IETF 192.0.0/24") << QStringLiteral("192.0.0.8") << QStringLiteral("reserved");
        QTest::newRow("TEST-NET-1") << QStringLiteral("192.0.2.1") << QStringLiteral("documentation");
        QTest::newRow("TEST-NET-2") << QStringLiteral("198.51.100.7") << QStringLiteral("documentation");
        QTest::newRow("TEST-NET-3") << QStringLiteral("203.0.113.200") << QStringLiteral("documentation");
        QTest::newRow("benchmarking 198.18") << QStringLiteral("198.18.0.1") << QStringLiteral("benchmarking");
        QTest::newRow("benchmarking 198.19") << QStringLiteral("198.19.255.255") << QStringLiteral("benchmarking");
        QTest::newRow("198.20 is public") << QStringLiteral("198.20.0.1") << QString();
        QTest::newRow("6to4 relay anycast") << QStringLiteral("192.88.99.1") << QStringLiteral("reserved");
        QTest::newRow("class E") << QStringLiteral("240.0.0.1") << QStringLiteral("reserved");
        QTest::newRow("multicast v4 high") << QStringLiteral("239.255.255.250") << QStringLiteral("multicast");
        QTest::newRow("v4-compatible loopback") << QStringLiteral("::127.0.0.1") << QStringLiteral("loopback");
        QTest::newRow("v4-compatible private") << QStringLiteral("::10.0.0.1") << QStringLiteral("private");
        QTest::newRow("v4-compatible link-local")
            << QStringLiteral("::169.254.169.254") << QStringLiteral("link-local");
        QTest::newRow("v4-mapped TEST-NET") << QStringLiteral("::ffff:192.0.2.1") << QStringLiteral("documentation");
        QTest::newRow("v4-mapped public") << QStringLiteral("::ffff:93.184.216.34") << QString();
        QTest::newRow("v4-translated private") << QStringLiteral("::ffff:0:192.168.0.1") << QStringLiteral("private");
        QTest::newRow("NAT64 of public") << QStringLiteral("64:ff9b::5db8:d822") << QString();
        QTest::newRow("NAT64 local-use") << QStringLiteral("64:ff9b:1::1") << QStringLiteral("reserved");
        QTest::newRow("6to4 of private") << QStringLiteral("2002:0a00:0001::1") << QStringLiteral("private");
        QTest::newRow("6to4 of public") << QStringLiteral("2002:5db8:d822::1") << QString();
        QTest::newRow("Teredo") << QStringLiteral("2001:0:4136:e378:8000:63bf:3fff:fdd2") << QStringLiteral("Teredo");
        QTest::newRow("benchmarking v6") << QStringLiteral("2001:2::1") << QStringLiteral("benchmarking");
        QTest::newRow("IETF 2001::/23") << QStringLiteral("2001:10::1") << QStringLiteral("reserved");
        QTest::newRow("documentation v6") << QStringLiteral("2001:db8::1") << QStringLiteral("documentation");
        QTest::newRow("documentation 3fff") << QStringLiteral("3fff:1::1") << QStringLiteral("documentation");
        QTest::newRow("discard-only") << QStringLiteral("100::1") << QStringLiteral("reserved");
        QTest::newRow("SRv6 SIDs") << QStringLiteral("5f00::1") << QStringLiteral("reserved");
        QTest::newRow("site-local v6") << QStringLiteral("fec0::1") << QStringLiteral("reserved");
        QTest::newRow("link-local with scope") << QStringLiteral("fe80::1%lo") << QStringLiteral("link-local");
        QTest::newRow("2001:4860 is public") << QStringLiteral("2001:4860:4860::8888") << QString();
    }
    void addressGuard()
    {
        QFETCH(QString, address);
        QFETCH(QString, reason);
        const QHostAddress parsed(address);
        QVERIFY(!parsed.isNull() || address == QLatin1String("::"));
        QCOMPARE(AddressGuard::refusalReason(parsed), reason);
    }

    void testModeAddressGuard_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("reason");
        QTest::newRow("public") << QStringLiteral("93.184.216.34") << QString();
        QTest::newRow("loopback") << QStringLiteral("127.0.0.1") << QString();
        QTest::newRow("loopback v6") << QStringLiteral("::1") << QString();
        QTest::newRow("v4-mapped loopback") << QStringLiteral("::ffff:127.0.0.1") << QString();
        QTest::newRow("private") << QStringLiteral("192.168.1.10") << QStringLiteral("private");
        QTest::newRow("link-local") << QStringLiteral("169.254.169.254") << QStringLiteral("link-local");
        QTest::newRow("link-local v6") << QStringLiteral("fe80::1") << QStringLiteral("link-local");
        QTest::newRow("unique-local") << QStringLiteral("fd00::1") << QStringLiteral("unique-local");
        QTest::newRow("v4-compatible private") << QStringLiteral("::10.0.0.1") << QStringLiteral("private");
        QTest::newRow("CGNAT") << QStringLiteral("100.64.0.1") << QStringLiteral("carrier-grade NAT");
    }
    void testModeAddressGuard()
    {
        QFETCH(QString, address);
        QFETCH(QString, reason);
        QCOMPARE(AddressGuard::testModeRefusalReason(QHostAddress(address)), reason);
    }

    void retrySchedule_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("retryIndex");
        QTest::addColumn<double>("unitRandom");
        QTest::addColumn<qint64>("delayMs"); // -1: exhausted
        QTest::newRow("first retry, no jitter") << 1.0 << 0 << 0.5 << qint64(5'000);
        QTest::newRow("first retry, -20 %") << 1.0 << 0 << 0.0 << qint64(4'000);
        QTest::newRow("first retry, +20 %") << 1.0 << 0 << 1.0 << qint64(6'000);
        QTest::newRow("5 min") << 1.0 << 1 << 0.5 << qint64(300'000);
        QTest::newRow("30 min") << 1.0 << 2 << 0.5 << qint64(1'800'000);
        QTest::newRow("2 h") << 1.0 << 3 << 0.5 << qint64(7'200'000);
        QTest::newRow("5 h") << 1.0 << 4 << 0.5 << qint64(18'000'000);
        QTest::newRow("10 h") << 1.0 << 5 << 0.5 << qint64(36'000'000);
        QTest::newRow("14 h") << 1.0 << 6 << 0.5 << qint64(50'400'000);
        QTest::newRow("20 h") << 1.0 << 7 << 0.5 << qint64(72'000'000);
        QTest::newRow("24 h, -20 %") << 1.0 << 8 << 0.0 << qint64(69'120'000);
        QTest::newRow("exhausted after 9 retries") << 1.0 << 9 << 0.5 << qint64(-1);
        QTest::newRow("scale 0.001: 5 min is 300 ms") << 0.001 << 1 << 0.5 << qint64(300);
        QTest::newRow("scale 0.001, exhausted too") << 0.001 << 9 << 0.5 << qint64(-1);
    }
    void retrySchedule()
    {
        QFETCH(double, scale);
        QFETCH(int, retryIndex);
        QFETCH(double, unitRandom);
        QFETCH(qint64, delayMs);
        const std::optional<qint64> delay = RetrySchedule(scale).delayMs(retryIndex, unitRandom);
        QCOMPARE(delay.value_or(-1), delayMs);
        QCOMPARE(RetrySchedule::kMaxAttempts, int(RetrySchedule::baseDelaysMs().size()) + 1);
    }

    void retryJitterStaysWithinTwentyPercent()
    {
        const RetrySchedule schedule;
        for (int i = 0; i < 200; ++i) {
            const qint64 delay = *schedule.delayMs(1);
            QVERIFY(delay >= 240'000 && delay <= 360'000);
        }
    }
};

QTEST_GUILESS_MAIN(TestWebhookSigning)
#include "tst_webhooksigning.moc"

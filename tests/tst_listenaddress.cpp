// The one ADDR:PORT rule (core/listenaddress.h) that serve, the terminal and the Settings page read
// --listen / [server] listen with (issue 14).
#include "listenaddress.h"

#include <QTest>

class TestListenAddress final : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("address"); // QHostAddress::toString() of the result
        QTest::addColumn<int>("port");
        QTest::newRow("loopback") << QStringLiteral("127.0.0.1:8080") << true << QStringLiteral("127.0.0.1") << 8080;
        QTest::newRow("every IPv4 interface")
            << QStringLiteral("0.0.0.0:8443") << true << QStringLiteral("0.0.0.0") << 8443;
        QTest::newRow("LAN address") << QStringLiteral("192.168.1.10:80") << true << QStringLiteral("192.168.1.10")
                                     << 80;
        QTest::newRow("port 0: any free port")
            << QStringLiteral("127.0.0.1:0") << true << QStringLiteral("127.0.0.1") << 0;
        QTest::newRow("highest port") << QStringLiteral("127.0.0.1:65535") << true << QStringLiteral("127.0.0.1")
                                      << 65535;
        QTest::newRow("port alone: loopback") << QStringLiteral("8080") << true << QStringLiteral("127.0.0.1") << 8080;
        QTest::newRow("localhost") << QStringLiteral("localhost:8080") << true << QStringLiteral("127.0.0.1") << 8080;
        QTest::newRow("LOCALHOST") << QStringLiteral("LOCALHOST:8080") << true << QStringLiteral("127.0.0.1") << 8080;
        QTest::newRow("IPv6 loopback") << QStringLiteral("[::1]:8080") << true << QStringLiteral("::1") << 8080;
        QTest::newRow("every IPv6 interface") << QStringLiteral("[::]:8080") << true << QStringLiteral("::") << 8080;
        QTest::newRow("IPv6 with scope") << QStringLiteral("[fe80::1%lo]:8080") << true << QStringLiteral("fe80::1%lo")
                                         << 8080;
        QTest::newRow("IPv6 full") << QStringLiteral("[2001:db8::10]:443") << true << QStringLiteral("2001:db8::10")
                                   << 443;

        QTest::newRow("empty") << QString() << false << QString() << 0;
        QTest::newRow("port too high") << QStringLiteral("127.0.0.1:65536") << false << QString() << 0;
        QTest::newRow("port far too high") << QStringLiteral("127.0.0.1:99999999") << false << QString() << 0;
        QTest::newRow("negative port") << QStringLiteral("127.0.0.1:-1") << false << QString() << 0;
        QTest::newRow("signed port") << QStringLiteral("127.0.0.1:+80") << false << QString() << 0;
        QTest::newRow("blank in port") << QStringLiteral("127.0.0.1: 80") << false << QString() << 0;
        QTest::newRow("no port") << QStringLiteral("127.0.0.1:") << false << QString() << 0;
        QTest::newRow("no address") << QStringLiteral(":8080") << false << QString() << 0;
        QTest::newRow("address alone") << QStringLiteral("127.0.0.1") << false << QString() << 0;
        QTest::newRow("host name") << QStringLiteral("shop.lan:8080") << false << QString() << 0;
        QTest::newRow("short IPv4") << QStringLiteral("127.1:8080") << false << QString() << 0;
        QTest::newRow("IPv4 part too big") << QStringLiteral("256.0.0.1:8080") << false << QString() << 0;
        QTest::newRow("IPv6 without brackets") << QStringLiteral("::1:8080") << false << QString() << 0;
        QTest::newRow("IPv6 without port") << QStringLiteral("[::1]") << false << QString() << 0;
        QTest::newRow("IPv6 bracket not closed") << QStringLiteral("[::1:8080") << false << QString() << 0;
        QTest::newRow("IPv4 in brackets") << QStringLiteral("[127.0.0.1]:8080") << false << QString() << 0;
        QTest::newRow("two ports") << QStringLiteral("127.0.0.1:80:80") << false << QString() << 0;
        QTest::newRow("URL") << QStringLiteral("http://127.0.0.1:8080") << false << QString() << 0;
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, address);
        QFETCH(int, port);
        QString why;
        const std::optional<ListenAddress> listen = ListenAddress::parse(text, &why);
        QCOMPARE(listen.has_value(), valid);
        if (!valid) {
            QVERIFY2(!why.isEmpty(), "a refusal says why");
            return;
        }
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(listen->address.toString(), address);
        QCOMPARE(int(listen->port), port);
        // What toString() writes reads back the same (the Settings page saves it).
        const std::optional<ListenAddress> again = ListenAddress::parse(listen->toString());
        QVERIFY(again);
        QCOMPARE(again->address, listen->address);
        QCOMPARE(again->port, listen->port);
    }

    void ipv6IsWrittenInBrackets()
    {
        QCOMPARE((ListenAddress{QHostAddress(QHostAddress::LocalHostIPv6), 8080}.toString()),
                 QStringLiteral("[::1]:8080"));
        QCOMPARE((ListenAddress{QHostAddress(QHostAddress::LocalHost), 0}.toString()), QStringLiteral("127.0.0.1:0"));
    }
};

QTEST_GUILESS_MAIN(TestListenAddress)
#include "tst_listenaddress.moc"

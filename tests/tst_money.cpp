#include "money.h"

#include <QTest>

class TestMoney final : public QObject
{
    Q_OBJECT

private slots:
    void format_data()
    {
        QTest::addColumn<qint64>("paise");
        QTest::addColumn<QString>("text");
        QTest::newRow("plan") << qint64(24900) << QStringLiteral("₹249.00");
        QTest::newRow("paisa") << qint64(5) << QStringLiteral("₹0.05");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("₹0.00");
        QTest::newRow("no grouping") << qint64(123456789) << QStringLiteral("₹1234567.89");
        QTest::newRow("negative") << qint64(-374) << QStringLiteral("-₹3.74");
    }
    void format()
    {
        QFETCH(qint64, paise);
        QFETCH(QString, text);
        QCOMPARE(Money::format(paise), text);
        QCOMPARE(Money::parse(text), std::optional<Paise>(paise));
    }

    void formatIndian_data()
    {
        QTest::addColumn<qint64>("paise");
        QTest::addColumn<QString>("text");
        QTest::newRow("one lakh") << qint64(10000000) << QStringLiteral("₹1,00,000.00");
        QTest::newRow("thousands") << qint64(495000) << QStringLiteral("₹4,950.00");
        QTest::newRow("hundreds: no comma") << qint64(29900) << QStringLiteral("₹299.00");
        QTest::newRow("exactly one thousand") << qint64(100000) << QStringLiteral("₹1,000.00");
        QTest::newRow("ten thousand") << qint64(1000000) << QStringLiteral("₹10,000.00");
        QTest::newRow("ten lakh") << qint64(100000000) << QStringLiteral("₹10,00,000.00");
        QTest::newRow("one crore") << qint64(1000000000) << QStringLiteral("₹1,00,00,000.00");
        QTest::newRow("crores and paise") << qint64(123456789012) << QStringLiteral("₹1,23,45,67,890.12");
        QTest::newRow("paisa") << qint64(5) << QStringLiteral("₹0.05");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("₹0.00");
        QTest::newRow("negative") << qint64(-123450) << QStringLiteral("-₹1,234.50");
        QTest::newRow("negative small") << qint64(-374) << QStringLiteral("-₹3.74");
    }
    void formatIndian()
    {
        QFETCH(qint64, paise);
        QFETCH(QString, text);
        QCOMPARE(Money::formatIndian(paise), text);
        // The server's form of the same amount reads back as the same text for people.
        QCOMPARE(Money::displayText(Money::format(paise)), text);
    }

    void formatIndianRupees_data()
    {
        QTest::addColumn<qint64>("rupees");
        QTest::addColumn<QString>("text");
        QTest::newRow("plan") << qint64(299) << QStringLiteral("₹299");
        QTest::newRow("thousands") << qint64(2999) << QStringLiteral("₹2,999");
        QTest::newRow("lakh") << qint64(100000) << QStringLiteral("₹1,00,000");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("₹0");
        QTest::newRow("negative") << qint64(-1500) << QStringLiteral("-₹1,500");
    }
    void formatIndianRupees()
    {
        QFETCH(qint64, rupees);
        QFETCH(QString, text);
        QCOMPARE(Money::formatIndianRupees(rupees), text);
    }

    void displayTextLeavesOtherTextAlone_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("dash") << QStringLiteral("—");
        QTest::newRow("already grouped") << QStringLiteral("₹1,249.00");
        QTest::newRow("words") << QStringLiteral("unknown");
    }
    void displayTextLeavesOtherTextAlone()
    {
        QFETCH(QString, text);
        QCOMPARE(Money::displayText(text), text);
    }

    void parseRejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no sign") << QStringLiteral("249.00");
        QTest::newRow("one decimal") << QStringLiteral("₹249.0");
        QTest::newRow("no decimals") << QStringLiteral("₹249");
        QTest::newRow("grouping") << QStringLiteral("₹1,249.00");
        QTest::newRow("blank") << QString();
        QTest::newRow("rs") << QStringLiteral("Rs 249.00");
    }
    void parseRejects()
    {
        QFETCH(QString, text);
        QVERIFY(!Money::parse(text).has_value());
    }

    void percentage_data()
    {
        QTest::addColumn<qint64>("amount");
        QTest::addColumn<int>("basisPoints");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("jio 249 at 1.5%: 373.5 rounds up") << qint64(24900) << 150 << qint64(374);
        QTest::newRow("airtel 249 at 2%") << qint64(24900) << 200 << qint64(498);
        QTest::newRow("vi 10 at 3.5%") << qint64(1000) << 350 << qint64(35);
        QTest::newRow("half paisa up") << qint64(100) << 50 << qint64(1);
        QTest::newRow("just under half") << qint64(99) << 50 << qint64(0);
        QTest::newRow("zero rate") << qint64(24900) << 0 << qint64(0);
        QTest::newRow("bsnl 2000 at 4%") << qint64(200000) << 400 << qint64(8000);
    }
    void percentage()
    {
        QFETCH(qint64, amount);
        QFETCH(int, basisPoints);
        QFETCH(qint64, expected);
        QCOMPARE(Money::percentageOf(amount, basisPoints), expected);
    }

    void formatRate()
    {
        QCOMPARE(Money::formatRate(150), QStringLiteral("1.5 %"));
        QCOMPARE(Money::formatRate(200), QStringLiteral("2.0 %"));
        QCOMPARE(Money::formatRate(125), QStringLiteral("1.25 %"));
    }
};

QTEST_GUILESS_MAIN(TestMoney)
#include "tst_money.moc"

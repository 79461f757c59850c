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

#include "aadhaar/sandboxresidents.h"
#include "aadhaar/sandboxsmsgateway.h"
#include "validators.h"

#include <QSet>
#include <QTest>

namespace {

/// A valid Aadhaar number: @p elevenDigits followed by their Verhoeff check digit.
QString withCheckDigit(const QString &elevenDigits)
{
    return elevenDigits + QString::number(Validators::verhoeffCheckDigit(elevenDigits));
}

} // namespace

/// The sandbox resident directory and the outbox's mobile masking (docs/api-guide.md, "Sandbox Aadhaar numbers").
class TestAadhaarSandbox final : public QObject
{
    Q_OBJECT

private slots:
    void linkedMobile_data()
    {
        QTest::addColumn<QString>("number");
        QTest::addColumn<bool>("linked");
        QTest::newRow("ordinary") << withCheckDigit(QStringLiteral("23456789012")) << true;
        QTest::newRow("starts with 9") << withCheckDigit(QStringLiteral("98765432109")) << true;
        QTest::newRow("0000 before check digit") << withCheckDigit(QStringLiteral("23456780000")) << false;
        QTest::newRow("another 0000") << withCheckDigit(QStringLiteral("99999990000")) << false;
        QTest::newRow("000 only") << withCheckDigit(QStringLiteral("23456781000")) << true;
        QTest::newRow("0000 elsewhere") << withCheckDigit(QStringLiteral("20000789012")) << true;
    }
    void linkedMobile()
    {
        QFETCH(QString, number);
        QFETCH(bool, linked);
        QVERIFY(Validators::isAadhaarNumber(number));
        QCOMPARE(SandboxResidents::hasNoLinkedMobile(number), !linked);
        const std::optional<QString> mobile = SandboxResidents::linkedMobile(number);
        QCOMPARE(mobile.has_value(), linked);
        if (linked) {
            QVERIFY2(Validators::isPhoneNumber(*mobile), qPrintable(*mobile));
            QCOMPARE(SandboxResidents::linkedMobile(number), mobile); // deterministic
        }
    }

    void invalidNumbersHaveNoResident_data()
    {
        QTest::addColumn<QString>("number");
        const QString valid = withCheckDigit(QStringLiteral("23456789012"));
        QString wrongCheck = valid;
        wrongCheck[11] = QChar(u'0' + (valid.at(11).digitValue() + 1) % 10);
        QTest::newRow("wrong check digit") << wrongCheck;
        QTest::newRow("11 digits") << valid.left(11);
        QTest::newRow("starts with 1") << withCheckDigit(QStringLiteral("13456789012"));
        QTest::newRow("empty") << QString();
    }
    void invalidNumbersHaveNoResident()
    {
        QFETCH(QString, number);
        QVERIFY(!SandboxResidents::linkedMobile(number).has_value());
    }

    void mobilesSpreadOverNumbers()
    {
        QSet<QString> mobiles;
        QSet<QChar> firstDigits;
        for (int i = 0; i < 200; ++i) {
            const std::optional<QString> mobile = SandboxResidents::linkedMobile(
                withCheckDigit(QStringLiteral("2345678%1").arg(i + 1, 4, 10, QChar(u'0'))));
            QVERIFY(mobile);
            mobiles.insert(*mobile);
            firstDigits.insert(mobile->at(0));
        }
        QCOMPARE(mobiles.size(), 200);
        QCOMPARE(firstDigits, (QSet<QChar>{u'6', u'7', u'8', u'9'}));
    }

    void maskMobile_data()
    {
        QTest::addColumn<QString>("mobile");
        QTest::addColumn<QString>("masked");
        QTest::newRow("ten digits") << QStringLiteral("9876543210") << QStringLiteral("XXXXXX3210");
        QTest::newRow("with country code") << QStringLiteral("+91 98765 43210") << QStringLiteral("XXXXXX3210");
        QTest::newRow("too short") << QStringLiteral("123") << QStringLiteral("XXXXXXXXXX");
        QTest::newRow("empty") << QString() << QStringLiteral("XXXXXXXXXX");
    }
    void maskMobile()
    {
        QFETCH(QString, mobile);
        QFETCH(QString, masked);
        QCOMPARE(SandboxSmsGateway::maskMobile(mobile), masked);
    }
};

QTEST_GUILESS_MAIN(TestAadhaarSandbox)
#include "tst_aadhaarsandbox.moc"

// The UPI payment link of NPCI's UPI Linking Specifications (core/upilink.h) and the UPI ID rule
// (Validators::isUpiVpa), issue 28. The expected encodings were made independently with Python's
// urllib.parse.quote(value, safe='') (RFC 3986 unreserved set only).
#include "upilink.h"
#include "validators.h"

#include <QTest>
#include <QUrl>
#include <QUrlQuery>

class TestUpiLink final : public QObject
{
    Q_OBJECT

private slots:
    void build_data()
    {
        QTest::addColumn<QString>("vpa");
        QTest::addColumn<QString>("payee");
        QTest::addColumn<qint64>("amount");
        QTest::addColumn<QString>("note");
        QTest::addColumn<QString>("link");
        QTest::newRow("spaces are %20, the @ of pa stays")
            << QStringLiteral("sharmamobile@okaxis") << QStringLiteral("Sharma Mobile") << qint64(29900)
            << QStringLiteral("Recharge 9876543210 ref RD-20240501-0007")
            << QStringLiteral("upi://pay?pa=sharmamobile@okaxis&pn=Sharma%20Mobile&am=299.00&cu=INR"
                              "&tn=Recharge%209876543210%20ref%20RD-20240501-0007");
        QTest::newRow("& in the payee name cannot end the value")
            << QStringLiteral("shop.01@ybl") << QStringLiteral("Sharma & Sons") << qint64(1000) << QStringLiteral("x")
            << QStringLiteral("upi://pay?pa=shop.01@ybl&pn=Sharma%20%26%20Sons&am=10.00&cu=INR&tn=x");
        QTest::newRow("+ = % are encoded, not read as space or separators")
            << QStringLiteral("a_b-c@paytm") << QStringLiteral("A+B=C 100%") << qint64(5) << QStringLiteral("?&#/")
            << QStringLiteral("upi://pay?pa=a_b-c@paytm&pn=A%2BB%3DC%20100%25&am=0.05&cu=INR&tn=%3F%26%23%2F");
        QTest::newRow("Hindi payee name is UTF-8, percent-encoded")
            << QStringLiteral("9876543210@upi") << QStringLiteral("शर्मा मोबाइल") << qint64(10000000) << QString()
            << QStringLiteral("upi://pay?pa=9876543210@upi&pn=%E0%A4%B6%E0%A4%B0%E0%A5%8D%E0%A4%AE%E0%A4%BE%20"
                              "%E0%A4%AE%E0%A5%8B%E0%A4%AC%E0%A4%BE%E0%A4%87%E0%A4%B2&am=100000.00&cu=INR");
        QTest::newRow("accents and a curly apostrophe")
            << QStringLiteral("ramu@sbi") << QStringLiteral("Rāmu’s shop/#1?") << qint64(24950) << QString()
            << QStringLiteral("upi://pay?pa=ramu@sbi&pn=R%C4%81mu%E2%80%99s%20shop%2F%231%3F&am=249.50&cu=INR");
    }
    void build()
    {
        QFETCH(QString, vpa);
        QFETCH(QString, payee);
        QFETCH(qint64, amount);
        QFETCH(QString, note);
        QFETCH(QString, link);
        QCOMPARE(UpiLink::build(vpa, payee, amount, note), link);
    }

    // What a UPI app reads back out of the link is exactly what went in.
    void decodesBack()
    {
        const QString payee = QStringLiteral("शर्मा & सन्स + 100% मोबाइल");
        const QString note = QStringLiteral("Recharge 9876543210 ref RD_x-1 = ₹299");
        const QUrl url(UpiLink::build(QStringLiteral("sharma.sons@okicici"), payee, 29900, note), QUrl::StrictMode);
        QVERIFY2(url.isValid(), qPrintable(url.errorString()));
        QCOMPARE(url.scheme(), QStringLiteral("upi"));
        QCOMPARE(url.host(), QStringLiteral("pay"));
        const QUrlQuery query(url);
        QCOMPARE(query.queryItemValue(QStringLiteral("pa"), QUrl::FullyDecoded), QStringLiteral("sharma.sons@okicici"));
        QCOMPARE(query.queryItemValue(QStringLiteral("pn"), QUrl::FullyDecoded), payee);
        QCOMPARE(query.queryItemValue(QStringLiteral("am"), QUrl::FullyDecoded), QStringLiteral("299.00"));
        QCOMPARE(query.queryItemValue(QStringLiteral("cu"), QUrl::FullyDecoded), QStringLiteral("INR"));
        QCOMPARE(query.queryItemValue(QStringLiteral("tn"), QUrl::FullyDecoded), note);
        QCOMPARE(query.queryItems().size(), 5);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("vpa");
        QTest::addColumn<QString>("payee");
        QTest::addColumn<qint64>("amount");
        QTest::newRow("no UPI ID") << QString() << QStringLiteral("Shop") << qint64(100);
        QTest::newRow("bad UPI ID") << QStringLiteral("shop@") << QStringLiteral("Shop") << qint64(100);
        QTest::newRow("blank payee") << QStringLiteral("shop@ybl") << QStringLiteral("  ") << qint64(100);
        QTest::newRow("zero amount") << QStringLiteral("shop@ybl") << QStringLiteral("Shop") << qint64(0);
        QTest::newRow("negative amount") << QStringLiteral("shop@ybl") << QStringLiteral("Shop") << qint64(-100);
    }
    void refused()
    {
        QFETCH(QString, vpa);
        QFETCH(QString, payee);
        QFETCH(qint64, amount);
        QVERIFY(UpiLink::build(vpa, payee, amount, QStringLiteral("note")).isEmpty());
    }

    void amountText_data()
    {
        QTest::addColumn<qint64>("paise");
        QTest::addColumn<QString>("text");
        QTest::newRow("whole rupees") << qint64(29900) << QStringLiteral("299.00");
        QTest::newRow("paise") << qint64(24950) << QStringLiteral("249.50");
        QTest::newRow("one paisa") << qint64(1) << QStringLiteral("0.01");
        QTest::newRow("ten paise") << qint64(10) << QStringLiteral("0.10");
        QTest::newRow("no grouping") << qint64(10000000) << QStringLiteral("100000.00");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0.00");
    }
    void amountText()
    {
        QFETCH(qint64, paise);
        QFETCH(QString, text);
        QCOMPARE(UpiLink::amountText(paise), text);
    }

    void longNoteIsCut()
    {
        const QString prefix = QStringLiteral("upi://pay?pa=ab@cd&pn=P&am=1.00&cu=INR&tn=");
        const QString note(100, QLatin1Char('n'));
        QCOMPARE(UpiLink::build(QStringLiteral("ab@cd"), QStringLiteral("P"), 100, note),
                 prefix + QString(UpiLink::kMaxNoteLength, QLatin1Char('n')));
        // An emoji (a surrogate pair) across the 80th code unit is left out whole, never halved.
        const QString withEmoji = QString(79, QLatin1Char('n')) + QStringLiteral("😀tail");
        QCOMPARE(UpiLink::build(QStringLiteral("ab@cd"), QStringLiteral("P"), 100, withEmoji),
                 prefix + QString(79, QLatin1Char('n')));
        // Exactly 80 fits.
        QCOMPARE(UpiLink::build(QStringLiteral("ab@cd"), QStringLiteral("P"), 100, QString(80, QLatin1Char('x'))),
                 prefix + QString(80, QLatin1Char('x')));
    }

    void saleNote_data()
    {
        QTest::addColumn<QString>("number");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("note");
        QTest::newRow("mobile") << QStringLiteral("9876543210") << QStringLiteral("RD-20240501-0007")
                                << QStringLiteral("Recharge 9876543210 ref RD-20240501-0007");
        QTest::newRow("voucher (no number)") << QString() << QStringLiteral("RD-7") << QStringLiteral("Sale ref RD-7");
        const QString longReference(64, QLatin1Char('R'));
        QTest::newRow("long reference kept whole")
            << QStringLiteral("9876543210") << longReference << QStringLiteral("ref ") + longReference;
    }
    void saleNote()
    {
        QFETCH(QString, number);
        QFETCH(QString, reference);
        QFETCH(QString, note);
        QCOMPARE(UpiLink::saleNote(number, reference), note);
        QVERIFY(note.size() <= UpiLink::kMaxNoteLength);
    }

    void isUpiVpa_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("name@bank") << QStringLiteral("sharmamobile@okaxis") << true;
        QTest::newRow("mobile number") << QStringLiteral("9876543210@ybl") << true;
        QTest::newRow("dot underscore hyphen") << QStringLiteral("sharma.mobile_shop-1@paytm") << true;
        QTest::newRow("upper case") << QStringLiteral("SHOP@SBI") << true;
        QTest::newRow("shortest parts") << QStringLiteral("ab@cd") << true;
        QTest::newRow("256-character name") << QString(256, QLatin1Char('a')) + QStringLiteral("@ybl") << true;
        QTest::newRow("64-character handle") << QStringLiteral("shop@") + QString(64, QLatin1Char('h')) << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("no @") << QStringLiteral("sharmamobile") << false;
        QTest::newRow("two @") << QStringLiteral("a@b@ybl") << false;
        QTest::newRow("empty name") << QStringLiteral("@ybl") << false;
        QTest::newRow("empty handle") << QStringLiteral("shop@") << false;
        QTest::newRow("one-character name") << QStringLiteral("a@ybl") << false;
        QTest::newRow("one-character handle") << QStringLiteral("shop@y") << false;
        QTest::newRow("257-character name") << QString(257, QLatin1Char('a')) + QStringLiteral("@ybl") << false;
        QTest::newRow("65-character handle") << QStringLiteral("shop@") + QString(65, QLatin1Char('h')) << false;
        QTest::newRow("dot in handle") << QStringLiteral("shop@ok.axis") << false;
        QTest::newRow("e-mail address") << QStringLiteral("shop@gmail.com") << false;
        QTest::newRow("space") << QStringLiteral("sharma mobile@ybl") << false;
        QTest::newRow("surrounding blanks (not trimmed here)") << QStringLiteral(" shop@ybl ") << false;
        QTest::newRow("plus") << QStringLiteral("shop+1@ybl") << false;
        QTest::newRow("ampersand") << QStringLiteral("a&pn=x@ybl") << false;
        QTest::newRow("Devanagari") << QStringLiteral("शर्मा@ybl") << false;
        QTest::newRow("fullwidth letters") << QStringLiteral("ｓｈｏｐ@ybl") << false;
        QTest::newRow("hyphen in handle") << QStringLiteral("shop@ok-axis") << false;
    }
    void isUpiVpa()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isUpiVpa(text), valid);
    }
};

QTEST_GUILESS_MAIN(TestUpiLink)
#include "tst_upilink.moc"

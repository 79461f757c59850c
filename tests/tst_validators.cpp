// Validation rules of api-conventions.md ("Validation rules"): phone, Aadhaar (Verhoeff), DTH numbers per
// operator of resources/data/operators.json, e-mail and reference_id.
#include "operatorcatalog.h"
#include "validators.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

class TestValidators final : public QObject
{
    Q_OBJECT

private slots:
    void phone_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("starts with 9") << QStringLiteral("9876543210") << true;
        QTest::newRow("starts with 8") << QStringLiteral("8123456789") << true;
        QTest::newRow("starts with 7") << QStringLiteral("7000000000") << true;
        QTest::newRow("starts with 6") << QStringLiteral("6999999999") << true;
        QTest::newRow("starts with 5") << QStringLiteral("5876543210") << false;
        QTest::newRow("starts with 0") << QStringLiteral("0876543210") << false;
        QTest::newRow("starts with 1") << QStringLiteral("1876543210") << false;
        QTest::newRow("9 digits") << QStringLiteral("987654321") << false;
        QTest::newRow("11 digits") << QStringLiteral("98765432101") << false;
        QTest::newRow("country code") << QStringLiteral("+919876543210") << false;
        QTest::newRow("leading 0 trunk prefix") << QStringLiteral("09876543210") << false;
        QTest::newRow("letter inside") << QStringLiteral("98765A3210") << false;
        QTest::newRow("lower-case L for one") << QStringLiteral("98765432l0") << false;
        QTest::newRow("inner blank") << QStringLiteral("98765 43210") << false;
        QTest::newRow("surrounding blanks (not trimmed here)") << QStringLiteral(" 9876543210 ") << false;
        QTest::newRow("hyphen") << QStringLiteral("98765-43210") << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("blank") << QStringLiteral("          ") << false;
        QTest::newRow("devanagari digits") << QStringLiteral("९८७६५४३२१०") << false;
        QTest::newRow("fullwidth digits") << QStringLiteral("９８７６５４３２１０") << false;
    }
    void phone()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isPhoneNumber(text), valid);
    }

    void asciiDigits_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("digits") << QStringLiteral("0123456789") << true;
        QTest::newRow("one digit") << QStringLiteral("7") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("sign") << QStringLiteral("-5") << false;
        QTest::newRow("decimal") << QStringLiteral("2.5") << false;
        QTest::newRow("exponent") << QStringLiteral("2e2") << false;
        QTest::newRow("arabic-indic") << QStringLiteral("٢٤٩") << false;
        QTest::newRow("superscript two") << QStringLiteral("²") << false;
    }
    void asciiDigits()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isAsciiDigits(text), valid);
    }

    // Published Verhoeff examples (Wikipedia "Verhoeff algorithm"; Rosetta Code "Verhoeff algorithm").
    void verhoeffCheckDigit_data()
    {
        QTest::addColumn<QString>("digits");
        QTest::addColumn<int>("check");
        QTest::newRow("236 -> 3 (Wikipedia)") << QStringLiteral("236") << 3;
        QTest::newRow("12345 -> 1 (Rosetta Code)") << QStringLiteral("12345") << 1;
        QTest::newRow("123456789012 -> 0 (Rosetta Code)") << QStringLiteral("123456789012") << 0;
        QTest::newRow("142857 -> 0") << QStringLiteral("142857") << 0;
        QTest::newRow("75872 -> 2") << QStringLiteral("75872") << 2;
        QTest::newRow("single zero") << QStringLiteral("0") << 4;
        QTest::newRow("sample Aadhaar 23412341234 -> 6") << QStringLiteral("23412341234") << 6;
        QTest::newRow("empty") << QString() << -1;
        QTest::newRow("letters") << QStringLiteral("23A") << -1;
        QTest::newRow("blank inside") << QStringLiteral("2 3") << -1;
    }
    void verhoeffCheckDigit()
    {
        QFETCH(QString, digits);
        QFETCH(int, check);
        QCOMPARE(Validators::verhoeffCheckDigit(digits), check);
        if (check >= 0) {
            QVERIFY(Validators::verhoeffValid(digits + QString::number(check)));
            for (int wrong = 0; wrong < 10; ++wrong) {
                if (wrong != check)
                    QVERIFY2(!Validators::verhoeffValid(digits + QString::number(wrong)),
                             qPrintable(QString::number(wrong)));
            }
        }
    }

    void verhoeffValid_data()
    {
        QTest::addColumn<QString>("digits");
        QTest::addColumn<bool>("valid");
        QTest::newRow("2363") << QStringLiteral("2363") << true;
        QTest::newRow("2364") << QStringLiteral("2364") << false;
        QTest::newRow("123451") << QStringLiteral("123451") << true;
        QTest::newRow("1234567890120") << QStringLiteral("1234567890120") << true;
        QTest::newRow("1234567890129") << QStringLiteral("1234567890129") << false;
        QTest::newRow("2633: transposed 2363") << QStringLiteral("2633") << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("non-digit") << QStringLiteral("236x") << false;
    }
    void verhoeffValid()
    {
        QFETCH(QString, digits);
        QFETCH(bool, valid);
        QCOMPARE(Validators::verhoeffValid(digits), valid);
    }

    void aadhaar_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("sample 2341 2341 2346") << QStringLiteral("234123412346") << true;
        QTest::newRow("sample, wrong check digit") << QStringLiteral("234123412347") << false;
        QTest::newRow("with blanks") << QStringLiteral("2341 2341 2346") << false;
        QTest::newRow("11 digits") << QStringLiteral("23412341234") << false;
        QTest::newRow("13 digits") << QStringLiteral("2341234123460") << false;
        QTest::newRow("letters") << QStringLiteral("23412341234A") << false;
        QTest::newRow("empty") << QString() << false;
        // First digits 0 and 1 are never issued, even with a valid check digit.
        const QString zeroBody = QStringLiteral("03412341234");
        const QString oneBody = QStringLiteral("13412341234");
        QTest::newRow("first digit 0, check valid")
            << zeroBody + QString::number(Validators::verhoeffCheckDigit(zeroBody)) << false;
        QTest::newRow("first digit 1, check valid")
            << oneBody + QString::number(Validators::verhoeffCheckDigit(oneBody)) << false;
        for (int first = 2; first <= 9; ++first) {
            const QString body = QString::number(first) + QStringLiteral("9876543210");
            const QString number = body + QString::number(Validators::verhoeffCheckDigit(body));
            QTest::addRow("first digit %d, computed check digit", first) << number << true;
        }
    }
    void aadhaar()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isAadhaarNumber(text), valid);
    }

    // Verhoeff catches every single-digit error and every transposition of adjacent digits: check both
    // exhaustively on computed 12-digit Aadhaar-format numbers.
    void aadhaarErrorsDetected_data()
    {
        QTest::addColumn<QString>("body");
        QTest::newRow("23412341234") << QStringLiteral("23412341234");
        QTest::newRow("98765432109") << QStringLiteral("98765432109");
        QTest::newRow("50718293645") << QStringLiteral("50718293645");
        QTest::newRow("44444444444") << QStringLiteral("44444444444");
    }
    void aadhaarErrorsDetected()
    {
        QFETCH(QString, body);
        const int check = Validators::verhoeffCheckDigit(body);
        QVERIFY(check >= 0 && check <= 9);
        const QString number = body + QString::number(check);
        QVERIFY(Validators::isAadhaarNumber(number));

        int singleChanges = 0;
        for (qsizetype i = 0; i < number.size(); ++i) {
            for (char digit = '0'; digit <= '9'; ++digit) {
                if (number.at(i) == QLatin1Char(digit))
                    continue;
                QString changed = number;
                changed[i] = QLatin1Char(digit);
                QVERIFY2(!Validators::verhoeffValid(changed), qPrintable(changed));
                ++singleChanges;
            }
        }
        QCOMPARE(singleChanges, 12 * 9);

        int transpositions = 0;
        for (qsizetype i = 0; i + 1 < number.size(); ++i) {
            if (number.at(i) == number.at(i + 1))
                continue;
            QString swapped = number;
            std::swap(swapped[i], swapped[i + 1]);
            QVERIFY2(!Validators::verhoeffValid(swapped), qPrintable(swapped));
            ++transpositions;
        }
        QVERIFY(transpositions > 0 || body == QStringLiteral("44444444444"));
    }

    // The catalog's DTH rules must be exactly those of resources/data/operators.json.
    void dthCatalogMatchesResource()
    {
        QFile file(QStringLiteral(":/data/operators.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray operators =
            QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("operators")).toArray();
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        QStringList fileCodes;
        for (const QJsonValue &value : operators) {
            const QJsonObject o = value.toObject();
            if (o.value(QStringLiteral("kind")).toString() != QLatin1String("dth"))
                continue;
            fileCodes.append(o.value(QStringLiteral("code")).toString());
            const OperatorInfo *info = catalog.findOperator(fileCodes.last(), ProductKind::Dth);
            QVERIFY(info);
            QCOMPARE(info->numberPattern.pattern(), o.value(QStringLiteral("number_pattern")).toString());
        }
        QCOMPARE(fileCodes, (QStringList{QStringLiteral("SD"), QStringLiteral("AD"), QStringLiteral("VC"),
                                         QStringLiteral("TS"), QStringLiteral("DT"), QStringLiteral("BT")}));
        QCOMPARE(catalog.codeList(ProductKind::Dth), QStringLiteral("SD AD VC TS DT BT"));
    }

    void dth_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        // Sun Direct: 11-digit smart card.
        QTest::newRow("SD 11 digits") << QStringLiteral("SD") << QStringLiteral("41234567890") << true;
        QTest::newRow("SD 10 digits not a phone") << QStringLiteral("SD") << QStringLiteral("4123456789") << false;
        QTest::newRow("SD 12 digits") << QStringLiteral("SD") << QStringLiteral("412345678901") << false;
        // Airtel Digital TV: 10 digits starting with 3.
        QTest::newRow("AD customer id") << QStringLiteral("AD") << QStringLiteral("3012345678") << true;
        QTest::newRow("AD starts with 2") << QStringLiteral("AD") << QStringLiteral("2012345678") << false;
        QTest::newRow("AD 9 digits") << QStringLiteral("AD") << QStringLiteral("301234567") << false;
        QTest::newRow("AD 11 digits") << QStringLiteral("AD") << QStringLiteral("30123456789") << false;
        // Videocon d2h: 6 to 14 digits.
        QTest::newRow("VC 6 digits") << QStringLiteral("VC") << QStringLiteral("123456") << true;
        QTest::newRow("VC 14 digits") << QStringLiteral("VC") << QStringLiteral("12345678901234") << true;
        QTest::newRow("VC 5 digits") << QStringLiteral("VC") << QStringLiteral("12345") << false;
        QTest::newRow("VC 15 digits") << QStringLiteral("VC") << QStringLiteral("123456789012345") << false;
        // Tata Play: 10 digits starting with 1.
        QTest::newRow("TS subscriber id") << QStringLiteral("TS") << QStringLiteral("1012345678") << true;
        QTest::newRow("TS starts with 2") << QStringLiteral("TS") << QStringLiteral("2012345678") << false;
        QTest::newRow("TS 11 digits") << QStringLiteral("TS") << QStringLiteral("10123456789") << false;
        // Dish TV: 11 digits starting with 0.
        QTest::newRow("DT viewing card") << QStringLiteral("DT") << QStringLiteral("01234567890") << true;
        QTest::newRow("DT starts with 1") << QStringLiteral("DT") << QStringLiteral("11234567890") << false;
        QTest::newRow("DT 10 digits starting 0") << QStringLiteral("DT") << QStringLiteral("0123456789") << false;
        // Reliance Digital TV: 12 digits.
        QTest::newRow("BT 12 digits") << QStringLiteral("BT") << QStringLiteral("123456789012") << true;
        QTest::newRow("BT 11 digits") << QStringLiteral("BT") << QStringLiteral("12345678901") << false;
        QTest::newRow("BT 13 digits") << QStringLiteral("BT") << QStringLiteral("1234567890123") << false;

        // Every operator: the registered 10-digit mobile number is accepted; non-phones, letters and blanks are not.
        for (const char *code : {"SD", "AD", "VC", "TS", "DT", "BT"}) {
            const QString c = QLatin1String(code);
            QTest::addRow("%s registered mobile", code) << c << QStringLiteral("9876543210") << true;
            QTest::addRow("%s registered mobile starting 6", code) << c << QStringLiteral("6000000001") << true;
            QTest::addRow("%s letters", code) << c << QStringLiteral("30123A5678") << false;
            QTest::addRow("%s inner blank", code) << c << QStringLiteral("98765 43210") << false;
            QTest::addRow("%s sign", code) << c << QStringLiteral("+9876543210") << false;
            QTest::addRow("%s empty", code) << c << QString() << false;
            QTest::addRow("%s devanagari digits", code) << c << QStringLiteral("९८७६५४३२१०") << false;
        }
        // A 10-digit number that is neither a phone (first digit below 6) nor the operator's pattern.
        QTest::newRow("SD 10 digits starting 5") << QStringLiteral("SD") << QStringLiteral("5123456789") << false;
        QTest::newRow("DT 10 digits starting 5") << QStringLiteral("DT") << QStringLiteral("5123456789") << false;
        QTest::newRow("BT 10 digits starting 4") << QStringLiteral("BT") << QStringLiteral("4123456789") << false;
    }
    void dth()
    {
        QFETCH(QString, code);
        QFETCH(QString, text);
        QFETCH(bool, valid);
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        const OperatorInfo *info = catalog.findOperator(code, ProductKind::Dth);
        QVERIFY(info);
        QCOMPARE(Validators::isDthNumber(text, *info), valid);
    }

    void email_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << QStringLiteral("asha@example.com") << true;
        QTest::newRow("plus tag") << QStringLiteral("asha+pending@example.co.in") << true;
        QTest::newRow("subdomain") << QStringLiteral("a.b-c@mail.example.in") << true;
        QTest::newRow("254 chars") << QString(QString(64, QLatin1Char('a')) + QLatin1Char('@') +
                                              QString(185, QLatin1Char('b')) + QStringLiteral(".com"))
                                   << true;
        QTest::newRow("255 chars") << QString(QString(64, QLatin1Char('a')) + QLatin1Char('@') +
                                              QString(186, QLatin1Char('b')) + QStringLiteral(".com"))
                                   << false;
        QTest::newRow("local part 65 chars")
            << QString(QString(65, QLatin1Char('a')) + QStringLiteral("@example.com")) << false;
        QTest::newRow("no at") << QStringLiteral("asha.example.com") << false;
        QTest::newRow("two ats") << QStringLiteral("asha@home@example.com") << false;
        QTest::newRow("no dot in domain") << QStringLiteral("asha@localhost") << false;
        QTest::newRow("empty local part") << QStringLiteral("@example.com") << false;
        QTest::newRow("empty domain") << QStringLiteral("asha@") << false;
        QTest::newRow("trailing dot") << QStringLiteral("asha@example.") << false;
        QTest::newRow("leading dot in domain") << QStringLiteral("asha@.example.com") << false;
        QTest::newRow("double dot in domain") << QStringLiteral("asha@example..com") << false;
        QTest::newRow("blank inside") << QStringLiteral("asha k@example.com") << false;
        QTest::newRow("tab") << QStringLiteral("asha\t@example.com") << false;
        QTest::newRow("control character") << QStringLiteral("asha\u0001@example.com") << false;
        QTest::newRow("empty") << QString() << false;
    }
    void email()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isEmail(text), valid);
    }

    void plainText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("allowNewlines");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << QStringLiteral("Sharma Mobile Point, shop 4") << false << true;
        QTest::newRow("empty") << QString() << false << true;
        QTest::newRow("Devanagari with ZWJ and ZWNJ")
            << QStringLiteral("\u0915\u094d\u200d\u0937 \u0915\u094d\u200c\u0937") << false << true;
        QTest::newRow("emoji") << QStringLiteral("Recharge \U0001F4F1") << false << true;
        QTest::newRow("NUL") << QStringLiteral("a\u0000b") << false << false;
        QTest::newRow("tab") << QStringLiteral("a\tb") << false << false;
        QTest::newRow("newline on one line") << QStringLiteral("a\nb") << false << false;
        QTest::newRow("newline allowed") << QStringLiteral("a\nb") << true << true;
        QTest::newRow("carriage return even multi-line") << QStringLiteral("a\r\nb") << true << false;
        QTest::newRow("escape") << QStringLiteral("\u001b[31mred") << false << false;
        QTest::newRow("DEL") << QStringLiteral("a\u007fb") << false << false;
        QTest::newRow("C1 next line") << QStringLiteral("a\u0085b") << false << false;
        QTest::newRow("C1 CSI") << QStringLiteral("a\u009bb") << false << false;
        QTest::newRow("line separator") << QStringLiteral("a\u2028b") << true << false;
        QTest::newRow("paragraph separator") << QStringLiteral("a\u2029b") << true << false;
        QTest::newRow("right-to-left override") << QStringLiteral("invoice\u202etxt.exe") << false << false;
        QTest::newRow("left-to-right embedding") << QStringLiteral("a\u202ab") << false << false;
        QTest::newRow("first strong isolate") << QStringLiteral("a\u2068b") << false << false;
        QTest::newRow("pop directional isolate") << QStringLiteral("a\u2069b") << false << false;
    }
    void plainText()
    {
        QFETCH(QString, text);
        QFETCH(bool, allowNewlines);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isPlainText(text, allowNewlines), valid);
    }

    void referenceId_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("one char") << QStringLiteral("a") << true;
        QTest::newRow("full charset") << QStringLiteral("AZaz09_-") << true;
        QTest::newRow("order id") << QStringLiteral("ORD-2025_0001") << true;
        QTest::newRow("64 chars") << QString(64, QLatin1Char('x')) << true;
        QTest::newRow("65 chars") << QString(65, QLatin1Char('x')) << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("blank") << QStringLiteral("ORD 1") << false;
        QTest::newRow("dot") << QStringLiteral("ORD.1") << false;
        QTest::newRow("slash") << QStringLiteral("ORD/1") << false;
        QTest::newRow("colon") << QStringLiteral("ORD:1") << false;
        QTest::newRow("plus") << QStringLiteral("ORD+1") << false;
        QTest::newRow("percent") << QStringLiteral("ORD%201") << false;
        QTest::newRow("quote") << QStringLiteral("ORD'1") << false;
        QTest::newRow("non-ASCII letter") << QStringLiteral("ORDé1") << false;
        QTest::newRow("non-ASCII digit") << QStringLiteral("ORD١") << false;
    }
    void referenceId()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(Validators::isReferenceId(text), valid);
    }
};

QTEST_GUILESS_MAIN(TestValidators)
#include "tst_validators.moc"

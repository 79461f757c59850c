#include "answer.h"
#include "answerreader.h"
#include "clock.h"

#include <QJsonDocument>
#include <QTest>

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

struct Item
{
    qint64 id = 0;
    Paise price = 0;

    static std::optional<Item> fromJson(const QJsonObject &json, QString *error)
    {
        AnswerReader in(json, QStringLiteral("item"));
        Item item;
        item.id = in.integer(u"id");
        item.price = in.money(u"price");
        if (!in.ok()) {
            *error = in.error();
            return std::nullopt;
        }
        return item;
    }
};

} // namespace

class TestAnswerReader final : public QObject
{
    Q_OBJECT

private slots:
    void readsEveryType()
    {
        AnswerReader in(parse(R"({"s":"x","i":7,"b":true,"m":"₹249.50","d":"2026-11-24 10:00:00",
                                  "o":{},"a":[1],"n":null})"));
        QCOMPARE(in.string(u"s"), QStringLiteral("x"));
        QCOMPARE(in.integer(u"i"), 7);
        QCOMPARE(in.boolean(u"b"), true);
        QCOMPARE(in.money(u"m"), 24950);
        QCOMPARE(IstTime::format(in.dateTime(u"d")), QStringLiteral("2026-11-24 10:00:00"));
        QVERIFY(in.object(u"o").isEmpty());
        QCOMPARE(in.array(u"a").size(), 1);
        QVERIFY(!in.optionalString(u"n"));
        QVERIFY(!in.optionalInteger(u"absent"));
        QVERIFY2(in.ok(), qPrintable(in.error()));
    }

    void missingFieldIsAnErrorNotZero()
    {
        AnswerReader in(parse(R"({"other":1})"), QStringLiteral("wallet"));
        QCOMPARE(in.integer(u"balance"), 0);
        QVERIFY(!in.ok());
        QCOMPARE(in.error(), QStringLiteral("wallet: field `balance` is missing"));
    }

    void wrongTypesAreErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("string as integer")
            << QByteArray(R"({"f":"7"})") << QStringLiteral("field `f` is not an integer");
        QTest::newRow("fraction") << QByteArray(R"({"f":7.5})") << QStringLiteral("field `f` is not an integer");
        QTest::newRow("number as string") << QByteArray(R"({"g":7})") << QStringLiteral("field `g` is not a string");
        QTest::newRow("bad money") << QByteArray(R"({"m":"abc"})")
                                   << QStringLiteral("field `m` is not an amount in the form ₹249.00 (\"abc\")");
    }
    void wrongTypesAreErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        AnswerReader in(QJsonDocument::fromJson(json).object());
        if (json.contains("\"f\""))
            in.integer(u"f");
        else if (json.contains("\"g\""))
            in.string(u"g");
        else
            in.money(u"m");
        QCOMPARE(in.error(), error);
    }

    void firstProblemIsKept()
    {
        AnswerReader in(parse(R"({"a":"x"})"));
        in.integer(u"a");
        in.string(u"missing");
        QCOMPARE(in.error(), QStringLiteral("field `a` is not an integer"));
    }

    void listNamesTheBadElement()
    {
        AnswerReader in(parse(R"({"items":[{"id":1,"price":"₹1.00"},{"id":2}]})"));
        const QList<Item> items = in.list<Item>(u"items", &Item::fromJson);
        QCOMPARE(in.error(), QStringLiteral("field `items` element 1: item: field `price` is missing"));
        QVERIFY(items.size() <= 1);
    }

    void decodeTurnsABadAnswerIntoAnError()
    {
        ApiResult result;
        result.httpStatus = 200;
        result.data = parse(R"({"id":"1","price":"₹1.00"})");
        const Answer<Item> answer = AnswerDecoding::decode<Item>(result, &Item::fromJson);
        QVERIFY(!answer.ok());
        QCOMPARE(answer.error->reason(), QStringLiteral("bad_answer"));
        QVERIFY(answer.error->description().contains(QStringLiteral("`id` is not an integer")));

        result.data = parse(R"({"id":1,"price":"₹1.00"})");
        const Answer<Item> good = AnswerDecoding::decode<Item>(result, &Item::fromJson);
        QVERIFY(good.ok());
        QCOMPARE(good.value->price, 100);
    }
};

QTEST_GUILESS_MAIN(TestAnswerReader)
#include "tst_answerreader.moc"

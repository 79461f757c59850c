#include "catalogues.h"
#include "clock.h"
#include "operatorcatalog.h"
#include "plans/plancatalogue.h"
#include "plans/plancataloguestore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

using TestCatalogues::builtInBytes;

/// Sets (or, for an undefined `value`, removes) the value at a '/'-separated path of keys and array indexes.
QJsonValue edited(const QJsonValue &node, QStringList path, const QJsonValue &value)
{
    const QString step = path.takeFirst();
    if (node.isArray()) {
        QJsonArray array = node.toArray();
        const int index = step.toInt();
        if (path.isEmpty() && value.isUndefined())
            array.removeAt(index);
        else
            array[index] = path.isEmpty() ? value : edited(array.at(index), path, value);
        return array;
    }
    QJsonObject object = node.toObject();
    if (path.isEmpty() && value.isUndefined())
        object.remove(step);
    else
        object[step] = path.isEmpty() ? value : edited(object.value(step), path, value);
    return object;
}

/// The built-in catalogue with one value replaced (valueJson: a JSON value; empty: remove it).
QByteArray mutatedCatalogue(const QString &path, const QByteArray &valueJson)
{
    const QJsonObject root = QJsonDocument::fromJson(builtInBytes()).object();
    QJsonValue value(QJsonValue::Undefined);
    if (!valueJson.isEmpty())
        value = QJsonDocument::fromJson("[" + valueJson + "]").array().at(0);
    return QJsonDocument(edited(root, path.split(QLatin1Char('/')), value).toObject()).toJson(QJsonDocument::Compact);
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    QVERIFY(file.commit());
}

} // namespace

class TestPlanCatalogue final : public QObject
{
    Q_OBJECT

private slots:
    void builtInIsValid()
    {
        PlanCatalogueError error;
        const auto catalogue = PlanCatalogue::fromJson(builtInBytes(), m_operators, &error);
        QVERIFY2(catalogue, qPrintable(error.toString()));
        QCOMPARE(catalogue->version(), QStringLiteral("2025.1"));
        QCOMPARE(catalogue->pairCount(), 92);
        QCOMPARE(catalogue->planCount(), 3955);
        QCOMPARE(catalogue->sourceSha256(),
                 QCryptographicHash::hash(builtInBytes(), QCryptographicHash::Sha256).toHex());
    }

    void responsesArePreSerialized()
    {
        PlanCatalogueError error;
        const auto catalogue = PlanCatalogue::fromJson(builtInBytes(), m_operators, &error);
        QVERIFY(catalogue);
        const PlanResponse *delhi = catalogue->find(QStringLiteral("AT"), QStringLiteral("DL"));
        QVERIFY(delhi);
        const QJsonObject data = QJsonDocument::fromJson(delhi->body).object().value(QStringLiteral("data")).toObject();
        QCOMPARE(data.value(QStringLiteral("operator")).toString(), QStringLiteral("Airtel"));
        QCOMPARE(data.value(QStringLiteral("circle")).toString(), QStringLiteral("Delhi & NCR"));
        // A strong, quoted ETag of the body: 16 bytes of SHA-256 in hex.
        QCOMPARE(delhi->etag,
                 '"' + QCryptographicHash::hash(delhi->body, QCryptographicHash::Sha256).first(16).toHex() + '"');
        QVERIFY(catalogue->find(QStringLiteral("AT"), QStringLiteral("MU"))->etag != delhi->etag);
        QVERIFY(!catalogue->find(QStringLiteral("SD"), QStringLiteral("DL")));
        QVERIFY(!catalogue->find(QStringLiteral("AT"), QStringLiteral("XX")));

        // The same file gives the same bytes and ETags (clients' caches survive a restart).
        const auto again = PlanCatalogue::fromJson(builtInBytes(), m_operators, &error);
        QCOMPARE(again->find(QStringLiteral("AT"), QStringLiteral("DL"))->body, delhi->body);
        QCOMPARE(again->find(QStringLiteral("AT"), QStringLiteral("DL"))->etag, delhi->etag);
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("value"); // empty: remove
        QTest::addColumn<QString>("expected"); // PlanCatalogueError::toString()

        // entries[0] is (AT, AP), entries[1] (AT, AS), entries[23] (VI, AP), entries[46] (BS, AP).
        const QString plan = QStringLiteral("entries/0/categories/0/items/0/");
        const QString planPath = QStringLiteral("entries[0].categories[0].items[0].");
        QTest::newRow("amount over AT limit")
            << plan + QStringLiteral("amount") << QByteArray("2501")
            << planPath + QStringLiteral("amount: must be an integer within 10..2500 for AT");
        QTest::newRow("amount under limit")
            << plan + QStringLiteral("amount") << QByteArray("9")
            << planPath + QStringLiteral("amount: must be an integer within 10..2500 for AT");
        QTest::newRow("amount as string")
            << plan + QStringLiteral("amount") << QByteArray("\"199\"")
            << planPath + QStringLiteral("amount: must be an integer within 10..2500 for AT");
        QTest::newRow("amount with fraction")
            << plan + QStringLiteral("amount") << QByteArray("199.5")
            << planPath + QStringLiteral("amount: must be an integer within 10..2500 for AT");
        QTest::newRow("BSNL limit is 2000")
            << QStringLiteral("entries/46/categories/0/items/0/amount") << QByteArray("2001")
            << QStringLiteral("entries[46].categories[0].items[0].amount: must be an integer within 10..2000 for BS");
        QTest::newRow("amount missing") << plan + QStringLiteral("amount") << QByteArray()
                                        << planPath + QStringLiteral("amount: missing");
        QTest::newRow("plan_id missing") << plan + QStringLiteral("plan_id") << QByteArray()
                                         << planPath + QStringLiteral("plan_id: missing");
        QTest::newRow("plan_id string") << plan + QStringLiteral("plan_id") << QByteArray("\"10100001\"")
                                        << planPath + QStringLiteral("plan_id: must be a positive integer");
        QTest::newRow("plan_id zero") << plan + QStringLiteral("plan_id") << QByteArray("0")
                                      << planPath + QStringLiteral("plan_id: must be a positive integer");
        QTest::newRow("plan_id twice in a pair")
            << QStringLiteral("entries/0/categories/0/items/1/plan_id") << QByteArray("10100001")
            << QStringLiteral("entries[0].categories[0].items[1].plan_id: 10100001 is already used at "
                              "entries[0].categories[0].items[0]");
        QTest::newRow("plan_id twice in a pair, across categories")
            << QStringLiteral("entries/0/categories/1/items/0/plan_id") << QByteArray("10100001")
            << QStringLiteral("entries[0].categories[1].items[0].plan_id: 10100001 is already used at "
                              "entries[0].categories[0].items[0]");
        QTest::newRow("validity not a string") << plan + QStringLiteral("validity") << QByteArray("28")
                                               << planPath + QStringLiteral("validity: must be a string");
        QTest::newRow("benefit empty") << plan + QStringLiteral("benefit") << QByteArray("\" \"")
                                       << planPath + QStringLiteral("benefit: must not be empty");
        QTest::newRow("data null") << plan + QStringLiteral("data") << QByteArray("null")
                                   << planPath + QStringLiteral("data: must be a string");
        QTest::newRow("remark missing") << plan + QStringLiteral("remark") << QByteArray()
                                        << planPath + QStringLiteral("remark: missing");
        QTest::newRow("subscriptions not an array") << plan + QStringLiteral("subscriptions") << QByteArray("{}")
                                                    << planPath + QStringLiteral("subscriptions: must be an array");
        QTest::newRow("subscription name missing") << plan + QStringLiteral("subscriptions/0/name") << QByteArray()
                                                   << planPath + QStringLiteral("subscriptions[0].name: missing");
        QTest::newRow("subscription logo traversal")
            << plan + QStringLiteral("subscriptions/0/logo") << QByteArray("\"../plans.json\"")
            << planPath + QStringLiteral("subscriptions[0].logo: must be a plain .svg or .png file name (letters, "
                                         "digits, '-', '_')");
        QTest::newRow("plan not an object") << QStringLiteral("entries/0/categories/0/items/0") << QByteArray("7")
                                            << QStringLiteral("entries[0].categories[0].items[0]: must be an object");
        QTest::newRow("empty category") << QStringLiteral("entries/0/categories/0/items") << QByteArray("[]")
                                        << QStringLiteral("entries[0].categories[0].items: must have 1 to 500 "
                                                          "elements, has 0");
        QTest::newRow("category name missing") << QStringLiteral("entries/0/categories/1/name") << QByteArray()
                                               << QStringLiteral("entries[0].categories[1].name: missing");
        QTest::newRow("category name repeated")
            << QStringLiteral("entries/0/categories/1/name") << QByteArray("\"Unlimited\"")
            << QStringLiteral("entries[0].categories[1].name: category \"Unlimited\" appears twice in (AT, AP)");
        QTest::newRow("no categories") << QStringLiteral("entries/23/categories") << QByteArray("[]")
                                       << QStringLiteral("entries[23].categories: must have 1 to 500 elements, has 0");
        QTest::newRow("unknown operator")
            << QStringLiteral("entries/3/operator_code") << QByteArray("\"SD\"")
            << QStringLiteral("entries[3].operator_code: unknown operator \"SD\"; must be one of AT VI BS RJ");
        QTest::newRow("unknown circle") << QStringLiteral("entries/3/circle_code") << QByteArray("\"ZZ\"")
                                        << QStringLiteral("entries[3].circle_code: unknown circle \"ZZ\"");
        QTest::newRow("operator missing") << QStringLiteral("entries/5/operator_code") << QByteArray()
                                          << QStringLiteral("entries[5].operator_code: missing");
        QTest::newRow("pair twice") << QStringLiteral("entries/1/circle_code") << QByteArray("\"AP\"")
                                    << QStringLiteral("entries[1]: (AT, AP) appears again; first at entries[0]");
        QTest::newRow("pair missing") << QStringLiteral("entries/1") << QByteArray()
                                      << QStringLiteral("entries: 1 of the 92 (operator, circle) pairs are missing: "
                                                        "(AT, AS)");
        QTest::newRow("entry not an object")
            << QStringLiteral("entries/2") << QByteArray("\"x\"") << QStringLiteral("entries[2]: must be an object");
        QTest::newRow("entries not an array")
            << QStringLiteral("entries") << QByteArray("{}") << QStringLiteral("entries: must be an array");
        QTest::newRow("no entries") << QStringLiteral("entries") << QByteArray("[]")
                                    << QStringLiteral("entries: must have 1 to 92 elements, has 0");
        QTest::newRow("version missing") << QStringLiteral("catalogue_version") << QByteArray()
                                         << QStringLiteral("catalogue_version: missing");
        QTest::newRow("version a number") << QStringLiteral("catalogue_version") << QByteArray("2025")
                                          << QStringLiteral("catalogue_version: must be a string");
        QTest::newRow("generated_by a number")
            << QStringLiteral("generated_by") << QByteArray("1") << QStringLiteral("generated_by: must be a string");
    }
    // Plan ids are the upstream's: unique within one operator and circle is all the spec implies (issue 26), so the
    // same id in another pair is accepted and served in each.
    void planIdsMayRepeatAcrossPairs()
    {
        QByteArray json = mutatedCatalogue(QStringLiteral("entries/1/categories/0/items/0/plan_id"), "10100001");
        json = QJsonDocument(edited(QJsonDocument::fromJson(json).object(),
                                    QStringLiteral("entries/70/categories/0/items/0/plan_id").split(QLatin1Char('/')),
                                    10100001)
                                 .toObject())
                   .toJson(QJsonDocument::Compact);
        PlanCatalogueError error;
        const auto catalogue = PlanCatalogue::fromJson(json, m_operators, &error);
        QVERIFY2(catalogue, qPrintable(error.toString()));
        QCOMPARE(catalogue->planCount(), 3955);
        for (const auto &[op, circle] : {std::pair{"AT", "AP"}, std::pair{"AT", "AS"}, std::pair{"RJ", "AS"}}) {
            const QJsonObject first =
                QJsonDocument::fromJson(catalogue->find(QLatin1String(op), QLatin1String(circle))->body)
                    .object()
                    .value(QStringLiteral("data"))
                    .toObject()
                    .value(QStringLiteral("categories"))[0]
                    .toObject()
                    .value(QStringLiteral("items"))[0]
                    .toObject();
            QCOMPARE(first.value(QStringLiteral("plan_id")).toInteger(), 10100001);
        }
    }

    void rejects()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        PlanCatalogueError error;
        QVERIFY(!PlanCatalogue::fromJson(mutatedCatalogue(path, value), m_operators, &error));
        QCOMPARE(error.toString(), expected);
    }

    void syntaxErrorsNameTheLine_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<qint64>("line");
        QTest::addColumn<qint64>("column");

        QTest::newRow("trailing comma on line 3")
            << QByteArray("{\n  \"catalogue_version\": \"x\",\n  \"entries\": [1,]\n}") << qint64(3) << qint64(18);
        QTest::newRow("unterminated string on line 2")
            << QByteArray("{\n\"catalogue_version\": \"x\n}") << qint64(3) << qint64(2);
        QTest::newRow("garbage on line 1") << QByteArray("nonsense") << qint64(1) << qint64(2);
    }
    void syntaxErrorsNameTheLine()
    {
        QFETCH(QByteArray, json);
        QFETCH(qint64, line);
        QFETCH(qint64, column);
        PlanCatalogueError error;
        QVERIFY(!PlanCatalogue::fromJson(json, m_operators, &error));
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
        QVERIFY2(error.toString().startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)),
                 qPrintable(error.toString()));
    }

    void notAnObject()
    {
        PlanCatalogueError error;
        QVERIFY(!PlanCatalogue::fromJson("[]", m_operators, &error));
        QCOMPARE(error.toString(), QStringLiteral("the catalogue must be a JSON object"));
    }

    void storeLoadsAndWatchesTheDataDirectory()
    {
        QTemporaryDir dir;
        const QString file = PlanCatalogueStore::catalogueFile(dir.path());

        PlanCatalogueStore store(m_operators, dir.path(), m_clock);
        QCOMPARE(store.current()->version(), QStringLiteral("2025.1")); // no file yet: built-in
        QSignalSpy changed(&store, &PlanCatalogueStore::catalogueChanged);
        QSignalSpy rejected(&store, &PlanCatalogueStore::catalogueRejected);

        // A valid new file is picked up without a restart.
        writeFile(file, mutatedCatalogue(QStringLiteral("catalogue_version"), "\"2099.1\""));
        QTRY_COMPARE(changed.size(), 1);
        QCOMPARE(store.current()->version(), QStringLiteral("2099.1"));

        // An invalid one is refused, naming the path, and the catalogue in force stays.
        writeFile(file, mutatedCatalogue(QStringLiteral("entries/0/categories/0/items/0/amount"), "99999"));
        QTRY_COMPARE(rejected.size(), 1);
        QVERIFY2(rejected.at(0).at(0).toString().contains(QStringLiteral("entries[0].categories[0].items[0].amount")),
                 qPrintable(rejected.at(0).at(0).toString()));
        QCOMPARE(store.current()->version(), QStringLiteral("2099.1"));
        QCOMPARE(changed.size(), 1);

        // A fresh store starts from the file; an invalid file at start falls back to the built-in catalogue.
        writeFile(file, mutatedCatalogue(QStringLiteral("catalogue_version"), "\"2099.2\""));
        QCOMPARE(PlanCatalogueStore(m_operators, dir.path(), m_clock).current()->version(), QStringLiteral("2099.2"));
        writeFile(file, "{broken");
        QCOMPARE(PlanCatalogueStore(m_operators, dir.path(), m_clock).current()->version(), QStringLiteral("2025.1"));
    }

    void importFileChangesNothingWhenInvalid()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!PlanCatalogueStore::importFile(dir.path(), "{\"entries\": 5}", m_operators, &error));
        QCOMPARE(error, QStringLiteral("catalogue_version: missing"));
        QVERIFY(!QFile::exists(PlanCatalogueStore::catalogueFile(dir.path())));

        const QByteArray good = mutatedCatalogue(QStringLiteral("catalogue_version"), "\"2099.3\"");
        const auto installed = PlanCatalogueStore::importFile(dir.path(), good, m_operators, &error);
        QVERIFY2(installed, qPrintable(error));
        QCOMPARE(installed->version(), QStringLiteral("2099.3"));
        QFile file(PlanCatalogueStore::catalogueFile(dir.path()));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), good);
    }

private:
    const OperatorCatalog m_operators = OperatorCatalog::builtIn();
    const SystemClock m_clock;
};

QTEST_GUILESS_MAIN(TestPlanCatalogue)
#include "tst_plancatalogue.moc"

// Issue 30: `rechargedesk shops add|list|show|topup|limit|suspend|resume|statement`, the real binary on a TestStore
// (SQLite, and PostgreSQL as pg_shopscommand): what each prints, what it writes (ledger, audit, shops rows, with the
// actor cli:<user>), that bad input is refused with a clear message and exit status 2 and changes nothing, and that a
// running server sees a suspension made from the command line.
#include "clock.h"
#include "httpclient.h"
#include "serverprocess.h"
#include "teststore.h"

#include <QDate>
#include <QFile>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

namespace {

const QString kActor = QStringLiteral("cli:shops-tester");

QString today()
{
    return IstTime::dateOf(QDateTime::currentDateTimeUtc()).toString(Qt::ISODate);
}

/// Runs `rechargedesk shops ACTION …` on `store`; its exit code in *exitCode, stdout + stderr returned.
QString shops(const TestStore &store, const QStringList &arguments, int *exitCode)
{
    QString output;
    *exitCode = ServerProcess::runCli(QStringList{QStringLiteral("shops")} + arguments + store.arguments(), &output);
    return output;
}

QStringList args(std::initializer_list<const char *> list)
{
    QStringList result;
    for (const char *a : list)
        result.append(QString::fromUtf8(a));
    return result;
}

/// Makes the distributor's account (`shop`, with a live admin key, as setup would), whose audit log the shops'
/// changes go to, then adds the shop "Kirana Store" (credit limit ₹5,000); its key id and secret from the output.
bool addKirana(const TestStore &store, QString *output, QString *keyId, QString *secret)
{
    QString adminId, adminSecret;
    if (!ServerProcess::createKey(
            store,
            {QStringLiteral("--mode"), QStringLiteral("live"), QStringLiteral("--scope"), QStringLiteral("admin")},
            &adminId, &adminSecret, output))
        return false;
    int code = -1;
    *output = shops(
        store,
        args({"add", "--name", "Kirana Store", "--owner", "Asha Patil", "--mobile", "+91 98765 43210", "--circle", "MH",
              "--gstin", "27AAPFU0939F1ZV", "--credit-limit", "5000", "--public-url", "https://dist.example.in:8443/"}),
        &code);
    const QRegularExpressionMatch id = QRegularExpression(QStringLiteral("key_id: (live_\\S+)")).match(*output);
    const QRegularExpressionMatch key = QRegularExpression(QStringLiteral("key_secret: (\\S+)")).match(*output);
    if (code != 0 || !id.hasMatch() || !key.hasMatch())
        return false;
    *keyId = id.captured(1);
    *secret = key.captured(1);
    return true;
}

} // namespace

class TestShopsCommand final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("USER", "shops-tester");
        QVERIFY2(QFile::exists(ServerProcess::binary()), qPrintable(ServerProcess::binary()));
    }

    // add prints the shop, its live pos key once and the lines it runs to connect; the rows are there.
    void addPrintsKeyAndConnectLines()
    {
        TestStore store;
        QString output, keyId, secret;
        QVERIFY2(addKirana(store, &output, &keyId, &secret), qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("Kirana Store (active)")), qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("mobile 9876543210, circle MH, GSTIN 27AAPFU0939F1ZV")),
                 qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("credit limit ₹5000.00")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("rechargedesk upstream set --url https://dist.example.in:8443/api/v1"
                                                " --key-id %1 --key-secret-file secret.txt")
                                     .arg(keyId)),
                 qPrintable(output));
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM shops s JOIN accounts a ON a.id = s.account_id"
                                             " WHERE a.name = 'Kirana Store' AND s.credit_limit = 500000"
                                             " AND s.state = 'active' AND s.created_by = '%1'")
                                  .arg(kActor)),
                 1);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM api_keys WHERE key_id = '%1' AND mode = 'live'"
                                             " AND scope = 'pos'")
                                  .arg(keyId)),
                 1);
        QCOMPARE(
            store.scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'shop.add' AND actor = '%1'")
                             .arg(kActor)),
            1);

        // The same name again: refused (exit 1, it exists), nothing added.
        int code = -1;
        output = shops(
            store, args({"add", "--name", "Kirana Store", "--owner", "B", "--mobile", "9123456780", "--circle", "DL"}),
            &code);
        QCOMPARE(code, 1);
        QVERIFY2(output.contains(QLatin1String("already exists")), qPrintable(output));
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM shops")), 1);
        QVERIFY(!output.contains(QLatin1String("key_secret")));
    }

    // list (search, state, sort), show, topup, limit, suspend, resume — and what each writes.
    void manageShops()
    {
        TestStore store;
        QString output, keyId, secret;
        QVERIFY2(addKirana(store, &output, &keyId, &secret), qPrintable(output));
        int code = -1;
        output = shops(store,
                       args({"add", "--name", "Ravi Mobiles", "--owner", "Ravi Kumar", "--mobile", "9123456780",
                             "--circle", "DL"}),
                       &code);
        QCOMPARE(code, 0);

        output = shops(store,
                       args({"topup", "Kirana Store", "--amount", "2500", "--method", "upi", "--reference",
                             "424242424242", "--note", "paid at noon"}),
                       &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QStringLiteral("credited ₹2500.00; balance ₹2500.00")), qPrintable(output));
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger l JOIN accounts a ON a.id = "
                                             "l.account_id WHERE a.name = 'Kirana Store' AND l.mode = 'live' AND "
                                             "l.kind = 'topup' AND l.amount = 250000 AND l.actor = '%1' AND l.note = "
                                             "'top-up by UPI, ref 424242424242: paid at noon'")
                                  .arg(kActor)),
                 1);
        const QString ravi =
            QString::number(store.scalar(QStringLiteral("SELECT id FROM accounts WHERE name = 'Ravi Mobiles'")));
        output = shops(
            store, QStringList{QStringLiteral("topup"), ravi} + args({"--amount", "700", "--method", "cash"}), &code);
        QCOMPARE(code, 0);

        // list: both, richest first by balance; --search; --state.
        output = shops(store, args({"list", "--sort", "balance", "--desc"}), &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.indexOf(QLatin1String("Kirana Store")) < output.indexOf(QLatin1String("Ravi Mobiles")),
                 qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("₹2500.00")) && output.contains(QStringLiteral("₹700.00")),
                 qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("shops: 2")), qPrintable(output));
        output = shops(store, args({"list", "--sort", "balance"}), &code);
        QVERIFY2(output.indexOf(QLatin1String("Ravi Mobiles")) < output.indexOf(QLatin1String("Kirana Store")),
                 qPrintable(output));
        output = shops(store, args({"list", "--search", "RAVI"}), &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QLatin1String("Ravi Mobiles")) && !output.contains(QLatin1String("Kirana")),
                 qPrintable(output));

        // limit, by id; out of range refused and unchanged.
        output = shops(store, QStringList{QStringLiteral("limit"), ravi} + args({"--rupees", "10000"}), &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QStringLiteral("credit limit is ₹10000.00; available ₹10700.00")), qPrintable(output));
        output = shops(store, QStringList{QStringLiteral("limit"), ravi} + args({"--rupees", "1000001"}), &code);
        QCOMPARE(code, 2);
        QVERIFY2(output.contains(QLatin1String("credit_limit")), qPrintable(output));
        QCOMPARE(store.scalar(QStringLiteral("SELECT credit_limit FROM shops WHERE account_id = %1").arg(ravi)),
                 1'000'000);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'shop.credit_limit' AND "
                                             "actor = '%1'")
                                  .arg(kActor)),
                 1);

        // suspend / resume, each once.
        output = shops(store, args({"suspend", "Ravi Mobiles", "--reason", "dues unpaid"}), &code);
        QCOMPARE(code, 0);
        output = shops(store, args({"suspend", "Ravi Mobiles", "--reason", "again"}), &code);
        QCOMPARE(code, 1);
        output = shops(store, args({"list", "--state", "suspended"}), &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QLatin1String("Ravi Mobiles")) && !output.contains(QLatin1String("Kirana")),
                 qPrintable(output));
        output = shops(store, args({"show", "Ravi Mobiles"}), &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QLatin1String("(suspended)")) && output.contains(QLatin1String("dues unpaid")),
                 qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("margins: ")) && output.contains(QLatin1String("live")),
                 qPrintable(output));
        output = shops(store, args({"resume", "Ravi Mobiles"}), &code);
        QCOMPARE(code, 0);
        output = shops(store, args({"resume", "Ravi Mobiles"}), &code);
        QCOMPARE(code, 1);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM shops WHERE state = 'active'")), 2);

        // A shop that does not exist: exit 1, nothing written.
        output = shops(store, args({"topup", "Nobody", "--amount", "5", "--method", "cash"}), &code);
        QCOMPARE(code, 1);
        output = shops(store, args({"show", "999999"}), &code);
        QCOMPARE(code, 1);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'topup'")), 2);
    }

    // The statement adds up: opening, the lines with their running balance, the totals, the closing; and as CSV.
    void statementTextAndCsv()
    {
        TestStore store;
        QString output, keyId, secret;
        QVERIFY2(addKirana(store, &output, &keyId, &secret), qPrintable(output));
        int code = -1;
        shops(store, args({"topup", "Kirana Store", "--amount", "1000", "--method", "cash"}), &code);
        QCOMPARE(code, 0);
        shops(store, args({"topup", "Kirana Store", "--amount", "250", "--method", "bank", "--reference", "UTR77"}),
              &code);
        QCOMPARE(code, 0);
        const QString from = IstTime::dateOf(QDateTime::currentDateTimeUtc()).addDays(-3).toString(Qt::ISODate);
        output = shops(store,
                       QStringList{QStringLiteral("statement"), QStringLiteral("Kirana Store"),
                                   QStringLiteral("--from"), from, QStringLiteral("--to"), today()},
                       &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QStringLiteral("Statement of Kirana Store")), qPrintable(output));
        QVERIFY2(QRegularExpression(QStringLiteral("opening +₹0.00")).match(output).hasMatch(), qPrintable(output));
        QVERIFY2(
            QRegularExpression(QStringLiteral("topup +₹1000.00 +₹1000.00 .*top-up by cash")).match(output).hasMatch(),
            qPrintable(output));
        QVERIFY2(QRegularExpression(QStringLiteral("topup +₹250.00 +₹1250.00 .*bank transfer, ref UTR77"))
                     .match(output)
                     .hasMatch(),
                 qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("Totals: top-ups ₹1250.00")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("lines: 2")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("Opening ₹0.00, closing ₹1250.00")), qPrintable(output));

        // A range before the top-ups: no lines, nothing moved.
        output = shops(store, args({"statement", "Kirana Store", "--from", "2026-01-01", "--to", "2026-01-31"}), &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QStringLiteral("Opening ₹0.00, closing ₹0.00")), qPrintable(output));

        const QString csvPath = store.filePath(QStringLiteral("statement.csv"));
        output =
            shops(store,
                  QStringList{QStringLiteral("statement"), QStringLiteral("Kirana Store"), QStringLiteral("--from"),
                              from, QStringLiteral("--to"), today(), QStringLiteral("--csv"), csvPath},
                  &code);
        QCOMPARE(code, 0);
        QVERIFY2(output.contains(QStringLiteral("(2 lines) written to")), qPrintable(output));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 5); // header, opening, two top-ups, closing
        QVERIFY2(rows.at(0).startsWith(QLatin1String("id,at,kind,amount,balance")), qPrintable(rows.at(0)));
        QVERIFY2(rows.at(1).contains(QLatin1String(",opening,")), qPrintable(rows.at(1)));
        QVERIFY2(rows.at(3).contains(QLatin1String(",topup,250.00,1250.00,")), qPrintable(rows.at(3)));
        QVERIFY2(rows.at(4).contains(QLatin1String(",closing,,1250.00,")), qPrintable(rows.at(4)));

        // Bad ranges: a usage error, no file written.
        const QString badCsv = store.filePath(QStringLiteral("bad.csv"));
        output =
            shops(store,
                  QStringList{QStringLiteral("statement"), QStringLiteral("Kirana Store"), QStringLiteral("--from"),
                              today(), QStringLiteral("--to"), from, QStringLiteral("--csv"), badCsv},
                  &code);
        QCOMPARE(code, 2);
        QVERIFY2(output.contains(QLatin1String("from")), qPrintable(output));
        QVERIFY(!QFile::exists(badCsv));
        output = shops(store, args({"statement", "Kirana Store", "--from", "2025-01-01", "--to", "2026-06-30"}), &code);
        QCOMPARE(code, 2);
    }

    // Bad input: a clear message, exit status 2, and no shop, ledger row or audit entry made.
    void badInput_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no action") << QStringList() << QStringLiteral("Usage");
        QTest::newRow("unknown action") << args({"close"}) << QStringLiteral("unknown shops action");
        QTest::newRow("add without owner")
            << args({"add", "--name", "A Shop", "--mobile", "9876543210", "--circle", "MH"})
            << QStringLiteral("--owner");
        QTest::newRow("add bad mobile") << args({"add", "--name", "A Shop", "--owner", "O", "--mobile", "12345",
                                                 "--circle", "MH"})
                                        << QStringLiteral("mobile");
        QTest::newRow("add unknown circle")
            << args({"add", "--name", "A Shop", "--owner", "O", "--mobile", "9876543210", "--circle", "ZZ"})
            << QStringLiteral("circle");
        QTest::newRow("add bad GSTIN check digit")
            << args({"add", "--name", "A Shop", "--owner", "O", "--mobile", "9876543210", "--circle", "MH", "--gstin",
                     "27AAPFU0939F1ZW"})
            << QStringLiteral("gstin");
        QTest::newRow("add credit limit in paise") << args({"add", "--name", "A Shop", "--owner", "O", "--mobile",
                                                            "9876543210", "--circle", "MH", "--credit-limit", "10.50"})
                                                   << QStringLiteral("--credit-limit");
        QTest::newRow("add name too short")
            << args({"add", "--name", "A", "--owner", "O", "--mobile", "9876543210", "--circle", "MH"})
            << QStringLiteral("name");
        QTest::newRow("topup without shop")
            << args({"topup", "--amount", "5", "--method", "cash"}) << QStringLiteral("SHOP");
        QTest::newRow("topup paise") << args({"topup", "Kirana Store", "--amount", "5.50", "--method", "cash"})
                                     << QStringLiteral("--amount");
        QTest::newRow("topup zero") << args({"topup", "Kirana Store", "--amount", "0", "--method", "cash"})
                                    << QStringLiteral("--amount");
        QTest::newRow("topup negative") << args({"topup", "Kirana Store", "--amount", "-5", "--method", "cash"})
                                        << QStringLiteral("--amount");
        QTest::newRow("topup too much") << args({"topup", "Kirana Store", "--amount", "1000001", "--method", "cash"})
                                        << QStringLiteral("amount");
        QTest::newRow("topup without method")
            << args({"topup", "Kirana Store", "--amount", "5"}) << QStringLiteral("--method");
        QTest::newRow("topup unknown method")
            << args({"topup", "Kirana Store", "--amount", "5", "--method", "cheque"}) << QStringLiteral("method");
        QTest::newRow("topup UPI without reference")
            << args({"topup", "Kirana Store", "--amount", "5", "--method", "upi"}) << QStringLiteral("reference");
        QTest::newRow("limit negative") << args({"limit", "Kirana Store", "--rupees", "-1"})
                                        << QStringLiteral("--rupees");
        QTest::newRow("limit missing") << args({"limit", "Kirana Store"}) << QStringLiteral("--rupees");
        QTest::newRow("suspend without reason") << args({"suspend", "Kirana Store"}) << QStringLiteral("--reason");
        QTest::newRow("suspend reason too long")
            << (args({"suspend", "Kirana Store", "--reason"}) << QString(201, QLatin1Char('x')))
            << QStringLiteral("reason");
        QTest::newRow("statement bad date")
            << args({"statement", "Kirana Store", "--from", "2026-13-01", "--to", "2026-12-31"})
            << QStringLiteral("--from");
        QTest::newRow("statement without to")
            << args({"statement", "Kirana Store", "--from", "2026-11-01"}) << QStringLiteral("--to");
        QTest::newRow("unknown option") << args({"list", "--colour"}) << QStringLiteral("colour");
        QTest::newRow("list unknown sort") << args({"list", "--sort", "profit"}) << QStringLiteral("sort");
        QTest::newRow("list unknown state") << args({"list", "--state", "closed"}) << QStringLiteral("state");
    }
    void badInput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        TestStore store;
        QString output, keyId, secret;
        QVERIFY2(addKirana(store, &output, &keyId, &secret), qPrintable(output));
        const qint64 ledgerBefore = store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger"));
        const qint64 auditBefore = store.scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log"));
        int code = -1;
        output = shops(store, arguments, &code);
        QCOMPARE(code, 2);
        QVERIFY2(output.contains(message), qPrintable(output));
        QVERIFY2(!output.contains(QLatin1String("key_secret")), qPrintable(output));
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM shops")), 1);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger")), ledgerBefore);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log")), auditBefore);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM shops WHERE state = 'active' AND credit_limit = "
                                             "500000")),
                 1);
    }

    // A running server sees what the command line does: the shop's key is refused while it is suspended.
    void serverSeesSuspension()
    {
        TestStore store;
        QString output, keyId, secret;
        QVERIFY2(addKirana(store, &output, &keyId, &secret), qPrintable(output));
        ServerProcess server;
        QString error;
        QVERIFY2(server.start(store, {}, &error), qPrintable(error));
        HttpClient http;
        const QByteArray auth = HttpClient::basic(keyId, secret);
        QUrl shopUrl = server.url();
        shopUrl.setPath(QStringLiteral("/api/v1/shop"));
        QCOMPARE(http.get(shopUrl, auth).status, 200);
        int code = -1;
        shops(store, args({"suspend", "Kirana Store", "--reason", "dues unpaid"}), &code);
        QCOMPARE(code, 0);
        QTRY_COMPARE_WITH_TIMEOUT(http.get(shopUrl, auth).status, 403, 10'000);
        QCOMPARE(http.get(shopUrl, auth).error().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("account_suspended"));
        shops(store, args({"resume", "Kirana Store"}), &code);
        QCOMPARE(code, 0);
        QTRY_COMPARE_WITH_TIMEOUT(http.get(shopUrl, auth).status, 200, 10'000);
        QCOMPARE(server.terminate(), 0);
    }

    void help_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("shops") << args({"--help"})
                               << QStringLiteral("add|list|show|topup|limit|suspend|resume|statement");
        QTest::newRow("add") << args({"add", "--help"}) << QStringLiteral("--gstin");
        QTest::newRow("list") << args({"list", "--help"}) << QStringLiteral("--search");
        QTest::newRow("show") << args({"show", "--help"}) << QStringLiteral("SHOP");
        QTest::newRow("topup") << args({"topup", "--help"}) << QStringLiteral("--reference");
        QTest::newRow("limit") << args({"limit", "--help"}) << QStringLiteral("--rupees");
        QTest::newRow("suspend") << args({"suspend", "--help"}) << QStringLiteral("--reason");
        QTest::newRow("resume") << args({"resume", "--help"}) << QStringLiteral("SHOP");
        QTest::newRow("statement") << args({"statement", "--help"}) << QStringLiteral("--csv");
    }
    void help()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        QString output;
        QCOMPARE(ServerProcess::runCli(QStringList{QStringLiteral("shops")} + arguments, &output), 0);
        QVERIFY2(output.contains(mentions), qPrintable(output));
    }
};

QTEST_GUILESS_MAIN(TestShopsCommand)
#include "tst_shopscommand.moc"

// The reader of an upstream's CSV statement (issue 26, "By the upstream's statement"; backend/upstream/
// upstreamstatement.h): RFC 4180 quoting, line ends, a byte order mark and blank lines; columns found by their header
// names with case, spaces and punctuation ignored, or mapped with --columns; status words and amounts; and a clear 400
// naming the problem for each statement that cannot be read.
#include "apierror.h"
#include "upstream/upstreamstatement.h"

#include <QTest>

namespace {

/// The rows as one text, a row a line: "line:reference/status/transaction id/amount in paise/date/redeem code", the
/// status as read ("?" when unreadable).
QString rendered(const UpstreamStatement &statement)
{
    QStringList lines;
    for (const StatementRow &row : statement.rows()) {
        lines.append(QStringLiteral("%1:%2/%3/%4/%5/%6/%7")
                         .arg(row.line)
                         .arg(row.referenceId, row.status ? TransactionNames::status(*row.status) : QStringLiteral("?"),
                              row.transactionId, row.amount ? QString::number(*row.amount) : QString(), row.date,
                              row.redeemCode));
    }
    return lines.join(QLatin1Char('\n'));
}

/// A statement of `rows` readable rows.
QByteArray manyRows(int rows)
{
    QByteArray csv = "Reference ID,Status\r\n";
    csv.reserve(rows * 24);
    for (int i = 1; i <= rows; ++i)
        csv += "rd-abcd1234-" + QByteArray::number(i) + ",SUCCESS\r\n";
    return csv;
}

} // namespace

class TestUpstreamStatement final : public QObject
{
    Q_OBJECT

private slots:
    void reads_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("rows");
        QTest::newRow("plain") << QByteArray("reference_id,status\nrd-a-1,SUCCESS\nrd-a-2,FAILED\n")
                               << QStringLiteral("2:rd-a-1/SUCCESS////\n3:rd-a-2/FAILED////");
        QTest::newRow("every field quoted") << QByteArray("\"Reference ID\",\"Status\"\n\"rd-a-1\",\"Success\"\n")
                                            << QStringLiteral("2:rd-a-1/SUCCESS////");
        QTest::newRow("a comma inside quotes") << QByteArray("ref,status,amount\nrd-a-1,FAILED,\"1,249.50\"\n")
                                               << QStringLiteral("2:rd-a-1/FAILED//124950//");
        QTest::newRow("doubled quotes") << QByteArray("ref,status,date\nrd-a-1,FAILED,\"1 \"\"April\"\"\"\n")
                                        << QStringLiteral("2:rd-a-1/FAILED///1 \"April\"/");
        QTest::newRow("a quoted empty field")
            << QByteArray("ref,status,date\n\"rd-a-1\",\"failed\",\"\"\n") << QStringLiteral("2:rd-a-1/FAILED////");
        QTest::newRow("a line break inside quotes")
            << QByteArray("ref,status,date\nrd-a-1,FAILED,\"1 April\n10:00\"\nrd-a-2,SUCCESS,2 April\n")
            << QStringLiteral("2:rd-a-1/FAILED///1 April\n10:00/\n4:rd-a-2/SUCCESS///2 April/");
        QTest::newRow("CRLF") << QByteArray("ref,status\r\nrd-a-1,SUCCESS\r\nrd-a-2,FAILED\r\n")
                              << QStringLiteral("2:rd-a-1/SUCCESS////\n3:rd-a-2/FAILED////");
        QTest::newRow("CRLF inside quotes")
            << QByteArray("ref,status,date\r\nrd-a-1,FAILED,\"a\r\nb\"\r\nrd-a-2,x,y\r\n")
            << QStringLiteral("2:rd-a-1/FAILED///a\r\nb/\n4:rd-a-2/?///y/");
        QTest::newRow("CR only") << QByteArray("ref,status\rrd-a-1,SUCCESS\rrd-a-2,FAILED")
                                 << QStringLiteral("2:rd-a-1/SUCCESS////\n3:rd-a-2/FAILED////");
        QTest::newRow("no line end at the end")
            << QByteArray("ref,status\nrd-a-1,SUCCESS") << QStringLiteral("2:rd-a-1/SUCCESS////");
        QTest::newRow("UTF-8 byte order mark") << QByteArray("\xEF\xBB\xBFReference ID,Status\r\nrd-a-1,SUCCESS\r\n")
                                               << QStringLiteral("2:rd-a-1/SUCCESS////");
        QTest::newRow("blank lines and empty rows")
            << QByteArray("\n\nref,status\n\nrd-a-1,SUCCESS\n\n,\n \t, \nrd-a-2,FAILED\n\n")
            << QStringLiteral("5:rd-a-1/SUCCESS////\n9:rd-a-2/FAILED////");
        QTest::newRow("blanks around fields")
            << QByteArray(" ref , status \n rd-a-1 ,  success  \n") << QStringLiteral("2:rd-a-1/SUCCESS////");
        QTest::newRow("amounts")
            << QByteArray("ref,status,amount\nrd-a-1,SUCCESS,249\nrd-a-2,SUCCESS,249.5\nrd-a-3,SUCCESS,\xE2\x82\xB9"
                          "1249.00\nrd-a-4,SUCCESS,Rs. 10\nrd-a-5,SUCCESS,INR 2500.05\nrd-a-6,SUCCESS,\n")
            << QStringLiteral("2:rd-a-1/SUCCESS//24900//\n3:rd-a-2/SUCCESS//24950//\n4:rd-a-3/SUCCESS//124900//\n"
                              "5:rd-a-4/SUCCESS//1000//\n6:rd-a-5/SUCCESS//250005//\n7:rd-a-6/SUCCESS////");
        QTest::newRow("every column") << QByteArray(
                                             "Txn ID,Client Ref,Amount (Rs),Txn Status,Date,Voucher Code,Remarks\n"
                                             "88812,rd-a-1,249.00,Completed,2024-04-01 10:00,ABCD-EFGH-IJKL-MNOP,ok\n")
                                      << QStringLiteral(
                                             "2:rd-a-1/SUCCESS/88812/24900/2024-04-01 10:00/ABCD-EFGH-IJKL-MNOP");
        QTest::newRow("only a header") << QByteArray("ref,status\n") << QString();
    }
    void reads()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, rows);
        try {
            QCOMPARE(rendered(UpstreamStatement::parse(csv)), rows);
        } catch (const ApiError &e) {
            QFAIL(qPrintable(e.reason() + QStringLiteral(": ") + e.description()));
        }
    }

    // Header names with case, spaces and punctuation ignored; the columns each field was read from.
    void headerAliases_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("transaction");
        QTest::addColumn<QString>("amount");
        QTest::addColumn<QString>("date");
        QTest::newRow("reference id, status") << QByteArray("Reference ID,Status") << "Reference ID"
                                              << "Status"
                                              << ""
                                              << ""
                                              << "";
        QTest::newRow("snake case") << QByteArray("reference_id,txn_status") << "reference_id"
                                    << "txn_status"
                                    << ""
                                    << ""
                                    << "";
        QTest::newRow("upper case") << QByteArray("CLIENT REFERENCE ID,TRANSACTION STATUS") << "CLIENT REFERENCE ID"
                                    << "TRANSACTION STATUS"
                                    << ""
                                    << ""
                                    << "";
        QTest::newRow("punctuation") << QByteArray("Ref. ID,Status:") << "Ref. ID"
                                     << "Status:"
                                     << ""
                                     << ""
                                     << "";
        QTest::newRow("reference") << QByteArray("Status,Reference") << "Reference"
                                   << "Status"
                                   << ""
                                   << ""
                                   << "";
        QTest::newRow("client ref") << QByteArray("Client Ref,Status") << "Client Ref"
                                    << "Status"
                                    << ""
                                    << ""
                                    << "";
        QTest::newRow("partner ref") << QByteArray("Partner-Ref,Status") << "Partner-Ref"
                                     << "Status"
                                     << ""
                                     << ""
                                     << "";
        QTest::newRow("your ref") << QByteArray("Your Ref,Status") << "Your Ref"
                                  << "Status"
                                  << ""
                                  << ""
                                  << "";
        QTest::newRow("ref id") << QByteArray("refid,STATUS") << "refid"
                                << "STATUS"
                                << ""
                                << ""
                                << "";
        QTest::newRow("every column") << QByteArray("Date,Txn ID,Partner Ref,Recharge Amount,Txn Status,Operator")
                                      << "Partner Ref"
                                      << "Txn Status"
                                      << "Txn ID"
                                      << "Recharge Amount"
                                      << "Date";
        QTest::newRow("transaction id, amount")
            << QByteArray("Transaction ID,Your Reference,Amount,Status") << "Your Reference"
            << "Status"
            << "Transaction ID"
            << "Amount"
            << "";
        QTest::newRow("date before time") << QByteArray("Txn Time,Txn Date,Ref,Status") << "Ref"
                                          << "Status"
                                          << ""
                                          << ""
                                          << "Txn Date";
        QTest::newRow("quoted header") << QByteArray("\"Ref ID\",\"Status\",\"Txn No.\"") << "Ref ID"
                                       << "Status"
                                       << "Txn No."
                                       << ""
                                       << "";
    }
    void headerAliases()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, reference);
        QFETCH(QString, status);
        QFETCH(QString, transaction);
        QFETCH(QString, amount);
        QFETCH(QString, date);
        const UpstreamStatement statement = UpstreamStatement::parse(QByteArray(header + "\n"));
        QCOMPARE(statement.columns().value(QStringLiteral("reference_id")), reference);
        QCOMPARE(statement.columns().value(QStringLiteral("status")), status);
        QCOMPARE(statement.columns().value(QStringLiteral("transaction_id")), transaction);
        QCOMPARE(statement.columns().value(QStringLiteral("amount")), amount);
        QCOMPARE(statement.columns().value(QStringLiteral("date")), date);
    }

    // --columns (the API's "columns"): other names mapped by hand, matched with case, spaces and punctuation ignored;
    // a mapping wins over the usual names.
    void columnsOption_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("columns");
        QTest::addColumn<QString>("rows");
        QTest::newRow("names of its own")
            << QByteArray("My Ref,State,Paid\nrd-a-1,credited,10\n") << "reference_id=My Ref,status=State,amount=Paid"
            << "2:rd-a-1/SUCCESS//1000//";
        QTest::newRow("case and spaces ignored")
            << QByteArray("My Ref,State\nrd-a-1,rejected\n") << "reference_id = my_ref , status=STATE"
            << "2:rd-a-1/FAILED////";
        QTest::newRow("a mapping settles two candidates")
            << QByteArray("Reference,Client Ref,Status\nX-1,rd-a-1,pending\n") << "reference_id=Client Ref"
            << "2:rd-a-1/PENDING////";
        QTest::newRow("a mapped column is not looked for again")
            << QByteArray("Transaction ID,Status\nrd-a-1,processing\n") << "reference_id=Transaction ID"
            << "2:rd-a-1/PENDING////";
        QTest::newRow("nothing mapped") << QByteArray("Ref,Status\nrd-a-1,initiated\n") << ""
                                        << "2:rd-a-1/PENDING////";
    }
    void columnsOption()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, columns);
        QFETCH(QString, rows);
        try {
            QCOMPARE(rendered(UpstreamStatement::parse(csv, UpstreamStatement::columnsFromText(columns))), rows);
        } catch (const ApiError &e) {
            QFAIL(qPrintable(e.reason() + QStringLiteral(": ") + e.description()));
        }
    }

    void columnsFromText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason"); // empty: accepted
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("two fields") << "reference_id=My Ref,status=State"
                                    << "";
        QTest::newRow("no equals sign") << "reference_id"
                                        << "bad_columns";
        QTest::newRow("no header name") << "reference_id="
                                        << "bad_columns";
        QTest::newRow("no field") << "=My Ref"
                                  << "bad_columns";
        QTest::newRow("a field twice") << "status=A,status=B"
                                       << "bad_columns";
    }
    void columnsFromText()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        try {
            UpstreamStatement::columnsFromText(text);
            QVERIFY2(reason.isEmpty(), "accepted");
        } catch (const ApiError &e) {
            QCOMPARE(e.reason(), reason);
            QCOMPARE(e.field(), QStringLiteral("columns"));
            QCOMPARE(e.httpStatus(), 400);
        }
    }

    void statusWords_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("status"); // empty: not a status
        for (const char *word : {"success", "SUCCESS", "Successful", "completed", "Credited"})
            QTest::newRow(word) << QString::fromLatin1(word) << "SUCCESS";
        for (const char *word : {"failed", "FAILURE", "Refunded", "reversed", "REJECTED"})
            QTest::newRow(word) << QString::fromLatin1(word) << "FAILED";
        for (const char *word : {"pending", "Processing", "In Progress", "in-progress", "IN_PROGRESS", "initiated"})
            QTest::newRow(word) << QString::fromLatin1(word) << "PENDING";
        for (const char *word : {"", "ok", "done", "on hold", "refund initiated", "unsuccessful"})
            QTest::newRow(qPrintable(QStringLiteral("not: \"%1\"").arg(QLatin1String(word))))
                << QString::fromLatin1(word) << "";
    }
    void statusWords()
    {
        QFETCH(QString, word);
        QFETCH(QString, status);
        const std::optional<TransactionStatus> read = UpstreamStatement::statusFromWord(word);
        QCOMPARE(read ? TransactionNames::status(*read) : QString(), status);
    }

    void amounts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("paise"); // -1: not an amount
        QTest::newRow("rupees") << "249" << qint64(24900);
        QTest::newRow("two decimals") << "249.00" << qint64(24900);
        QTest::newRow("one decimal") << "249.5" << qint64(24950);
        QTest::newRow("rupee sign") << QStringLiteral("₹249.00") << qint64(24900);
        QTest::newRow("Indian grouping") << QStringLiteral("₹1,00,000.00") << qint64(10'000'000);
        QTest::newRow("Rs.") << "Rs. 249" << qint64(24900);
        QTest::newRow("Rs") << "Rs249" << qint64(24900);
        QTest::newRow("INR") << "INR 249" << qint64(24900);
        QTest::newRow("three decimals") << "249.000" << qint64(-1);
        QTest::newRow("negative") << "-249" << qint64(-1);
        QTest::newRow("words") << "two hundred" << qint64(-1);
        QTest::newRow("exponent") << "2e2" << qint64(-1);
        QTest::newRow("dollar") << "$249" << qint64(-1);
        QTest::newRow("empty") << "" << qint64(-1);
    }
    void amounts()
    {
        QFETCH(QString, text);
        QFETCH(qint64, paise);
        QCOMPARE(UpstreamStatement::amountFromText(text).value_or(-1), paise);
    }

    // A row that cannot be used is kept with its problem (and reported), never guessed at; the statement is still read.
    void unreadableRows()
    {
        const UpstreamStatement statement = UpstreamStatement::parse(QByteArray("Ref,Status,Amount,Txn ID\n"
                                                                                "rd-a-1,on hold,249,1\n"
                                                                                "rd-a-2,SUCCESS,two hundred,2\n"
                                                                                ",SUCCESS,249,\n"
                                                                                ",SUCCESS,249,TXN9\n"
                                                                                "rd-a-5,,249,5\n"
                                                                                ",FAILED,249,77\n"
                                                                                "rd-a-7,SUCCESS,249,\n"));
        QCOMPARE(statement.rows().size(), qsizetype(7));
        const QList<StatementRow> &rows = statement.rows();
        QVERIFY(rows.at(0).problem.contains(QLatin1String("\"on hold\"")));
        QVERIFY(!rows.at(0).status);
        QVERIFY(rows.at(1).problem.contains(QLatin1String("\"two hundred\"")));
        QVERIFY(rows.at(2).problem.contains(QLatin1String("no reference id")));
        QVERIFY(rows.at(3).problem.contains(QLatin1String("no reference id")));
        QVERIFY(rows.at(4).problem.contains(QLatin1String("no status")));
        QVERIFY2(rows.at(5).problem.isEmpty(), qPrintable(rows.at(5).problem)); // the upstream's id will do
        QCOMPARE(rows.at(5).upstreamId(), qint64(77));
        QVERIFY(rows.at(6).problem.isEmpty());
        QCOMPARE(rows.at(3).upstreamId(), qint64(0));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("columns");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("says"); // a part of the description
        QTest::newRow("empty file") << QByteArray() << ""
                                    << "csv"
                                    << "no_header"
                                    << "header";
        QTest::newRow("blank lines only") << QByteArray("\r\n\n  \n,,\n") << ""
                                          << "csv"
                                          << "no_header"
                                          << "header";
        QTest::newRow("a byte order mark only") << QByteArray("\xEF\xBB\xBF") << ""
                                                << "csv"
                                                << "no_header"
                                                << "empty";
        QTest::newRow("no reference column") << QByteArray("Status,Amount\nSUCCESS,10\n") << ""
                                             << "csv"
                                             << "no_reference_column"
                                             << "\"Status\", \"Amount\"";
        QTest::newRow("no status column") << QByteArray("Reference ID,Amount\nrd-a-1,10\n") << ""
                                          << "csv"
                                          << "no_status_column"
                                          << "columns.status";
        QTest::newRow("two reference columns") << QByteArray("Reference,Client Ref,Status\n") << ""
                                               << "csv"
                                               << "ambiguous_column"
                                               << "\"Client Ref\"";
        QTest::newRow("two status columns") << QByteArray("Ref,Status,Txn Status\n") << ""
                                            << "csv"
                                            << "ambiguous_column"
                                            << "columns.status";
        QTest::newRow("a row with more fields") << QByteArray("ref,status\nrd-a-1,SUCCESS\nrd-a-2,SUCCESS,late\n") << ""
                                                << "csv"
                                                << "field_count"
                                                << "line 3 has 3 fields";
        QTest::newRow("a row with fewer fields") << QByteArray("ref,status,amount\r\nrd-a-1,SUCCESS\r\n") << ""
                                                 << "csv"
                                                 << "field_count"
                                                 << "line 2 has 2 fields";
        QTest::newRow("an unquoted comma") << QByteArray("ref,status,amount\nrd-a-1,SUCCESS,1,249.00\n") << ""
                                           << "csv"
                                           << "field_count"
                                           << "double quotes";
        QTest::newRow("an unterminated quote") << QByteArray("ref,status\nrd-a-1,SUCCESS\n\"rd-a-2,FAILED\n") << ""
                                               << "csv"
                                               << "unterminated_quote"
                                               << "line 3";
        QTest::newRow("UTF-16") << QByteArray("\xFF\xFEr\0e\0f\0", 8) << ""
                                << "csv"
                                << "not_utf8"
                                << "UTF-8";
        QTest::newRow("an unknown field mapped") << QByteArray("ref,status\n") << "operator=Op"
                                                 << "columns"
                                                 << "unknown_column_field"
                                                 << "operator";
        QTest::newRow("a mapped header missing") << QByteArray("ref,status\n") << "reference_id=My Ref"
                                                 << "columns.reference_id"
                                                 << "column_not_found"
                                                 << "\"My Ref\"";
        QTest::newRow("over 100,000 rows") << manyRows(UpstreamStatement::kMaxRows + 1) << ""
                                           << "csv"
                                           << "too_many_rows"
                                           << "100000";
    }
    void errors()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, columns);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        QFETCH(QString, says);
        try {
            UpstreamStatement::parse(csv, UpstreamStatement::columnsFromText(columns));
            QFAIL("read");
        } catch (const ApiError &e) {
            QCOMPARE(e.httpStatus(), 400);
            QCOMPARE(e.reason(), reason);
            QCOMPARE(e.field(), field);
            QVERIFY2(e.description().contains(says), qPrintable(e.description()));
        }
    }

    void exactly100000Rows()
    {
        const UpstreamStatement statement = UpstreamStatement::parse(manyRows(UpstreamStatement::kMaxRows));
        QCOMPARE(statement.rows().size(), qsizetype(UpstreamStatement::kMaxRows));
        QCOMPARE(statement.rows().constLast().referenceId, QStringLiteral("rd-abcd1234-100000"));
        QCOMPARE(statement.rows().constLast().line, UpstreamStatement::kMaxRows + 1);
    }
};

QTEST_GUILESS_MAIN(TestUpstreamStatement)
#include "tst_upstreamstatement.moc"

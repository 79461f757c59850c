// Issue 17: TransactionRecord::dataEnvelope() writes the sale and status-check answer body directly; it must be
// byte for byte what QJsonDocument writes for {"data": toJson()} (the API's answers keep their exact bytes).
#include "entities/transactionrecord.h"

#include <QJsonDocument>
#include <QtTest>

class TestRecordEnvelope : public QObject
{
    Q_OBJECT

private slots:
    void sameBytesAsQJsonDocument_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("text"); ///< number / customer_email / reference_id / operator name alike
        QTest::addColumn<qint64>("id");
        QTest::addColumn<qint64>("paise");
        QTest::addColumn<qint64>("createdAtMs");
        QTest::addColumn<bool>("upstream");
        const int mobile = int(TransactionType::Mobile), voucher = int(TransactionType::Voucher),
                  dth = int(TransactionType::Dth);
        const int success = int(TransactionStatus::Success), failed = int(TransactionStatus::Failed),
                  pending = int(TransactionStatus::Pending);
        QTest::newRow("mobile SUCCESS") << mobile << success << QStringLiteral("9876543210") << 1LL << 24900LL
                                        << 1'763'900'000'123LL << false;
        QTest::newRow("mobile FAILED, id past 2^53")
            << mobile << failed << QStringLiteral("9876540000") << 9'007'199'254'740'993LL << 1LL << 0LL << false;
        QTest::newRow("DTH PENDING, empty texts")
            << dth << pending << QString() << 42LL << 0LL << 86'399'999LL << false;
        QTest::newRow("voucher, Hindi and ₹") << voucher << success << QStringLiteral("आशा+₹@example.com") << 7LL
                                              << 100'000'000LL << 1'700'000'000'000LL << false;
        QTest::newRow("emoji (surrogate pair)") << voucher << success << QStringLiteral("asha😀@example.com") << 8LL
                                                << 50000LL << 1'700'000'000'000LL << false;
        QTest::newRow("quote and slash") << mobile << success << QStringLiteral("ORD-\"1/3") << 9LL << 1000LL
                                         << 1'700'000'000'000LL << false;
        QTest::newRow("backslash") << mobile << success << QStringLiteral("ORD-\\2") << 13LL << 1000LL
                                   << 1'700'000'000'000LL << false;
        QTest::newRow("control characters")
            << mobile << success << QStringLiteral("a\tb\nc\x01\x7f") << 10LL << 1000LL << 1'700'000'000'000LL << false;
        QTest::newRow("unpaired surrogate")
            << mobile << success << QString(QChar(0xD800)) << 11LL << 1000LL << 1'700'000'000'000LL << false;
        QTest::newRow("live sale with upstream object")
            << mobile << pending << QStringLiteral("rd-1-12") << 12LL << 1000LL << 1'700'000'000'000LL << true;
        QTest::newRow("live voucher settled, Hindi") << voucher << success << QStringLiteral("आशा+₹@example.com")
                                                     << 14LL << 50000LL << 1'700'000'000'000LL << true;
        QTest::newRow("live DTH refused, quote in the upstream's error")
            << dth << failed << QStringLiteral("ORD-\"1/3") << 15LL << 1000LL << 1'700'000'000'000LL << true;
        // Issue 27: every FAILED row here carries "failed_after_pending" (between "entity" and the next key).
        QTest::newRow("voucher FAILED after PENDING") << voucher << failed << QStringLiteral("asha@example.com") << 16LL
                                                      << 50000LL << 1'700'000'000'000LL << false;
    }
    void sameBytesAsQJsonDocument()
    {
        QFETCH(int, type);
        QFETCH(int, status);
        QFETCH(QString, text);
        QFETCH(qint64, id);
        QFETCH(qint64, paise);
        QFETCH(qint64, createdAtMs);
        QFETCH(bool, upstream);
        TransactionRecord record;
        record.transactionId = id;
        record.type = TransactionType(type);
        record.status = TransactionStatus(status);
        record.operatorName = QStringLiteral("Vi ") + text;
        record.operatorCode = QStringLiteral("VI");
        record.number = text;
        record.customerEmail = text;
        record.redeemCode = record.type == TransactionType::Voucher ? QStringLiteral("ABCD-EFGH-JKMN-PQRS") : QString();
        record.referenceId = text;
        record.billAmount = paise;
        record.discount = paise / 100;
        record.paid = paise - paise / 100;
        record.createdAtMs = createdAtMs;
        record.failedAfterPending = record.status == TransactionStatus::Failed;
        if (upstream)
            record.upstream = QJsonObject{
                {QStringLiteral("state"), QStringLiteral("refused")},
                {QStringLiteral("reference_id"), QString(QStringLiteral("rd-1-") + QString::number(id))},
                {QStringLiteral("attempts"), 1},
                {QStringLiteral("transaction_id"), id > 12 ? QJsonValue(id * 1000) : QJsonValue()},
                {QStringLiteral("error"),
                 id == 15 ? QJsonValue(QJsonObject{{QStringLiteral("code"), text},
                                                   {QStringLiteral("description"), QStringLiteral("₹ \"कम\"\n")}})
                          : QJsonValue()}};
        const QByteArray expected =
            QJsonDocument(QJsonObject{{QStringLiteral("data"), record.toJson()}}).toJson(QJsonDocument::Compact);
        QCOMPARE(record.dataEnvelope(), expected);
    }
};

QTEST_GUILESS_MAIN(TestRecordEnvelope)
#include "tst_recordenvelope.moc"

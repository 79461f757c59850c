// The transaction codec (api-v1.md "Recharge and voucher transactions"), IST date-times, the input coercion
// rule of api-conventions.md ("Input coercion") and the sale decoders' errors.
#include "apierror.h"
#include "clock.h"
#include "entities/transactionrecord.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "salerequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

QJsonObject object(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        qFatal("test data is not a JSON object: %s", json.constData());
    return document.object();
}

qint64 utcMs(const char *isoUtc)
{
    const QDateTime time = QDateTime::fromString(QLatin1String(isoUtc), Qt::ISODate);
    Q_ASSERT(time.isValid() && time.timeSpec() == Qt::UTC);
    return time.toMSecsSinceEpoch();
}

TransactionRecord sampleRecord(TransactionType type)
{
    TransactionRecord r;
    r.transactionId = 4711;
    r.type = type;
    r.operatorCode = type == TransactionType::Voucher ? QStringLiteral("GP") : QStringLiteral("RJ");
    r.operatorName = type == TransactionType::Voucher ? QStringLiteral("Google Play") : QStringLiteral("Jio");
    if (type == TransactionType::Dth) {
        r.operatorCode = QStringLiteral("TS");
        r.operatorName = QStringLiteral("Tata Play");
    }
    r.number = type == TransactionType::Voucher ? QString() : QStringLiteral("9876543210");
    r.billAmount = 24900;
    r.discount = 374;
    r.paid = 24526;
    r.customerEmail = type == TransactionType::Voucher ? QStringLiteral("asha@example.com") : QString();
    r.status = TransactionStatus::Success;
    r.redeemCode = type == TransactionType::Voucher ? QStringLiteral("ABCD-EFGH-JKMN-PQRS") : QString();
    r.referenceId = QStringLiteral("ORD-1");
    r.createdAtMs = utcMs("2025-01-01T00:00:00Z");
    return r;
}

QStringList sortedKeys(const QJsonObject &json)
{
    QStringList keys = json.keys();
    keys.sort();
    return keys;
}

} // namespace

class TestTransactionRecord final : public QObject
{
    Q_OBJECT

private slots:
    // The exact field set of each entity kind, as the spec's table says.
    void fieldSets_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QStringList>("fields");
        const QStringList common{QStringLiteral("entity"),       QStringLiteral("transaction_id"),
                                 QStringLiteral("operator"),     QStringLiteral("type"),
                                 QStringLiteral("bill_amount"),  QStringLiteral("discount"),
                                 QStringLiteral("paid"),         QStringLiteral("transaction_status"),
                                 QStringLiteral("reference_id"), QStringLiteral("datetime")};
        QTest::newRow("mobile") << int(TransactionType::Mobile) << (common + QStringList{QStringLiteral("number")});
        QTest::newRow("dth") << int(TransactionType::Dth) << (common + QStringList{QStringLiteral("number")});
        QTest::newRow("voucher") << int(TransactionType::Voucher)
                                 << (common +
                                     QStringList{QStringLiteral("customer_email"), QStringLiteral("redeem_code")});
    }
    void fieldSets()
    {
        QFETCH(int, type);
        QFETCH(QStringList, fields);
        fields.sort();
        const QJsonObject json = sampleRecord(TransactionType(type)).toJson();
        QCOMPARE(sortedKeys(json), fields);
        QVERIFY(json.value(QStringLiteral("transaction_id")).isDouble());
        for (const QString &key : json.keys()) {
            if (key != QLatin1String("transaction_id"))
                QVERIFY2(json.value(key).isString(), qPrintable(key));
        }
    }

    void values_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("entity");
        QTest::addColumn<QString>("typeName");
        QTest::addColumn<QString>("operatorName");
        QTest::newRow("mobile") << int(TransactionType::Mobile) << QStringLiteral("mobile_recharge")
                                << QStringLiteral("MOBILE") << QStringLiteral("Jio");
        QTest::newRow("voucher") << int(TransactionType::Voucher) << QStringLiteral("appstore_voucher")
                                 << QStringLiteral("VOUCHER") << QStringLiteral("Google Play");
        QTest::newRow("dth") << int(TransactionType::Dth) << QStringLiteral("dth_recharge") << QStringLiteral("DTH")
                             << QStringLiteral("Tata Play");
    }
    void values()
    {
        QFETCH(int, type);
        QFETCH(QString, entity);
        QFETCH(QString, typeName);
        QFETCH(QString, operatorName);
        const QJsonObject json = sampleRecord(TransactionType(type)).toJson();
        QCOMPARE(json.value(QStringLiteral("entity")).toString(), entity);
        QCOMPARE(json.value(QStringLiteral("type")).toString(), typeName);
        QCOMPARE(json.value(QStringLiteral("operator")).toString(), operatorName);
        QCOMPARE(json.value(QStringLiteral("transaction_id")).toInteger(), 4711);
        QCOMPARE(json.value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹249.00"));
        QCOMPARE(json.value(QStringLiteral("discount")).toString(), QStringLiteral("₹3.74"));
        QCOMPARE(json.value(QStringLiteral("paid")).toString(), QStringLiteral("₹245.26"));
        QCOMPARE(json.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(json.value(QStringLiteral("reference_id")).toString(), QStringLiteral("ORD-1"));
        QCOMPARE(json.value(QStringLiteral("datetime")).toString(), QStringLiteral("2025-01-01 05:30:00"));
        QCOMPARE(TransactionNames::webhookEvent(TransactionType(type)), QStringLiteral("event.") + entity);
    }

    void emptyOptionalsStayStrings()
    {
        TransactionRecord voucher = sampleRecord(TransactionType::Voucher);
        voucher.customerEmail.clear();
        voucher.redeemCode.clear();
        voucher.referenceId.clear();
        voucher.status = TransactionStatus::Pending;
        const QJsonObject json = voucher.toJson();
        QCOMPARE(json.value(QStringLiteral("customer_email")), QJsonValue(QString()));
        QCOMPARE(json.value(QStringLiteral("redeem_code")), QJsonValue(QString()));
        QCOMPARE(json.value(QStringLiteral("reference_id")), QJsonValue(QString()));
        QCOMPARE(json.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
    }

    void istDatetime_data()
    {
        QTest::addColumn<qint64>("utc");
        QTest::addColumn<QString>("ist");
        QTest::newRow("new year UTC midnight")
            << utcMs("2025-01-01T00:00:00Z") << QStringLiteral("2025-01-01 05:30:00");
        QTest::newRow("IST midnight rolls the date")
            << utcMs("2024-12-31T18:30:00Z") << QStringLiteral("2025-01-01 00:00:00");
        QTest::newRow("just before IST midnight")
            << utcMs("2024-12-31T18:29:59Z") << QStringLiteral("2024-12-31 23:59:59");
        QTest::newRow("leap day") << utcMs("2024-02-29T12:00:00Z") << QStringLiteral("2024-02-29 17:30:00");
        QTest::newRow("milliseconds dropped")
            << (utcMs("2025-06-15T10:00:00Z") + 999) << QStringLiteral("2025-06-15 15:30:00");
        QTest::newRow("epoch") << qint64(0) << QStringLiteral("1970-01-01 05:30:00");
    }
    void istDatetime()
    {
        QFETCH(qint64, utc);
        QFETCH(QString, ist);
        QCOMPARE(IstTime::formatMs(utc), ist);
        QCOMPARE(IstTime::format(QDateTime::fromMSecsSinceEpoch(utc, Qt::UTC)), ist);
        const QDateTime parsed = IstTime::parse(ist);
        QVERIFY(parsed.isValid());
        QCOMPARE(parsed.toMSecsSinceEpoch(), utc - utc % 1000);
    }

    void istParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("utc");
        QTest::newRow("date only is IST midnight") << QStringLiteral("2025-01-01") << utcMs("2024-12-31T18:30:00Z");
        QTest::newRow("date and time") << QStringLiteral("2025-01-01 05:30:00") << utcMs("2025-01-01T00:00:00Z");
        QTest::newRow("ISO T separator") << QStringLiteral("2025-01-01T05:30:00") << qint64(-1);
        QTest::newRow("no seconds") << QStringLiteral("2025-01-01 05:30") << qint64(-1);
        QTest::newRow("month 13") << QStringLiteral("2025-13-01") << qint64(-1);
        QTest::newRow("garbage") << QStringLiteral("yesterday") << qint64(-1);
        QTest::newRow("empty") << QString() << qint64(-1);
    }
    void istParse()
    {
        QFETCH(QString, text);
        QFETCH(qint64, utc);
        const QDateTime parsed = IstTime::parse(text);
        if (utc < 0) {
            QVERIFY(!parsed.isValid());
        } else {
            QVERIFY(parsed.isValid());
            QCOMPARE(parsed.toMSecsSinceEpoch(), utc);
        }
    }

    void roundTrip_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("status");
        for (TransactionType type : {TransactionType::Mobile, TransactionType::Voucher, TransactionType::Dth}) {
            for (TransactionStatus status :
                 {TransactionStatus::Pending, TransactionStatus::Success, TransactionStatus::Failed}) {
                QTest::addRow("%s %s", qPrintable(TransactionNames::type(type)),
                              qPrintable(TransactionNames::status(status)))
                    << int(type) << int(status);
            }
        }
    }
    void roundTrip()
    {
        QFETCH(int, type);
        QFETCH(int, status);
        TransactionRecord record = sampleRecord(TransactionType(type));
        record.status = TransactionStatus(status);
        record.billAmount = 1000000;
        record.discount = 35000;
        record.paid = 965000;
        const QJsonObject json = record.toJson();
        // Through text, as a client sees it.
        const QJsonObject reparsed = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
        QString error;
        const std::optional<TransactionRecord> back = TransactionRecord::fromJson(reparsed, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->transactionId, record.transactionId);
        QCOMPARE(back->type, record.type);
        QCOMPARE(back->status, record.status);
        QCOMPARE(back->operatorName, record.operatorName);
        QVERIFY(back->operatorCode.isEmpty()); // the API shows names only
        QCOMPARE(back->number, record.number);
        QCOMPARE(back->billAmount, record.billAmount);
        QCOMPARE(back->discount, record.discount);
        QCOMPARE(back->paid, record.paid);
        QCOMPARE(back->customerEmail, record.customerEmail);
        QCOMPARE(back->redeemCode, record.redeemCode);
        QCOMPARE(back->referenceId, record.referenceId);
        QCOMPARE(back->createdAtMs, record.createdAtMs);
        QCOMPARE(back->toJson(), json);
    }

    // Issue 27: "failed_after_pending" is an extension written only when true, and read back; absent reads false.
    void failedAfterPendingExtension()
    {
        TransactionRecord record = sampleRecord(TransactionType::Mobile);
        record.status = TransactionStatus::Failed;
        QVERIFY(!record.toJson().contains(QStringLiteral("failed_after_pending")));
        QString error;
        QCOMPARE(TransactionRecord::fromJson(record.toJson(), &error)->failedAfterPending, false);
        record.failedAfterPending = true;
        const QJsonObject json = record.toJson();
        QCOMPARE(json.value(QStringLiteral("failed_after_pending")), QJsonValue(true));
        const std::optional<TransactionRecord> back = TransactionRecord::fromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(back->failedAfterPending);
        QCOMPARE(back->toJson(), json);
    }

    void fromJsonRejects_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value"); // undefined removes the key
        QTest::newRow("no type") << QStringLiteral("type") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("unknown type") << QStringLiteral("type") << QJsonValue(QStringLiteral("BROADBAND"));
        QTest::newRow("entity of another type")
            << QStringLiteral("entity") << QJsonValue(QStringLiteral("dth_recharge"));
        QTest::newRow("unknown status") << QStringLiteral("transaction_status") << QJsonValue(QStringLiteral("DONE"));
        QTest::newRow("money without sign") << QStringLiteral("bill_amount") << QJsonValue(QStringLiteral("249.00"));
        QTest::newRow("money as number") << QStringLiteral("paid") << QJsonValue(245.26);
        QTest::newRow("discount missing") << QStringLiteral("discount") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("datetime ISO") << QStringLiteral("datetime")
                                      << QJsonValue(QStringLiteral("2025-01-01T05:30:00Z"));
        QTest::newRow("id zero") << QStringLiteral("transaction_id") << QJsonValue(0);
        QTest::newRow("id missing") << QStringLiteral("transaction_id") << QJsonValue(QJsonValue::Undefined);
        // The upstream extension is read as strictly as the rest (issue 14): no zero for a missing count.
        QTest::newRow("upstream without attempts")
            << QStringLiteral("upstream")
            << QJsonValue(QJsonObject{{QStringLiteral("state"), QStringLiteral("sent")},
                                      {QStringLiteral("reference_id"), QStringLiteral("rd-1")},
                                      {QStringLiteral("transaction_id"), QJsonValue::Null},
                                      {QStringLiteral("error"), QJsonValue::Null}});
        QTest::newRow("failed_after_pending not a boolean")
            << QStringLiteral("failed_after_pending") << QJsonValue(QStringLiteral("yes"));
        QTest::newRow("upstream state unknown to the contract")
            << QStringLiteral("upstream")
            << QJsonValue(QJsonObject{{QStringLiteral("state"), QStringLiteral("lost")},
                                      {QStringLiteral("reference_id"), QStringLiteral("rd-1")},
                                      {QStringLiteral("transaction_id"), QJsonValue::Null},
                                      {QStringLiteral("attempts"), 1},
                                      {QStringLiteral("error"), QJsonValue::Null}});
    }
    void fromJsonRejects()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QJsonObject json = sampleRecord(TransactionType::Mobile).toJson();
        if (value.isUndefined())
            json.remove(key);
        else
            json.insert(key, value);
        QString error;
        QVERIFY(!TransactionRecord::fromJson(json, &error));
        QVERIFY(!error.isEmpty());
    }

    void names()
    {
        for (TransactionType t : {TransactionType::Mobile, TransactionType::Voucher, TransactionType::Dth})
            QCOMPARE(TransactionNames::typeFromString(TransactionNames::type(t)), std::optional<TransactionType>(t));
        for (TransactionStatus s : {TransactionStatus::Pending, TransactionStatus::Success, TransactionStatus::Failed})
            QCOMPARE(TransactionNames::statusFromString(TransactionNames::status(s)),
                     std::optional<TransactionStatus>(s));
        QVERIFY(!TransactionNames::typeFromString(QStringLiteral("mobile")));
        QVERIFY(!TransactionNames::statusFromString(QStringLiteral("success")));
    }

    // api-conventions.md "Input coercion": a JSON integer or a string of ASCII digits; nothing else.
    void coercion_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<qint64>("expected"); // -1: rejected
        QTest::addColumn<QString>("reason");
        QTest::newRow("integer") << QByteArray(R"({"amount": 249})") << qint64(249) << QString();
        QTest::newRow("digit string") << QByteArray(R"({"amount": "249"})") << qint64(249) << QString();
        QTest::newRow("padded digit string") << QByteArray(R"({"amount": " 249 "})") << qint64(249) << QString();
        QTest::newRow("tab-padded digit string")
            << QByteArray("{\"amount\": \"\\t249\\n\"}") << qint64(249) << QString();
        QTest::newRow("leading zeros") << QByteArray(R"({"amount": "0249"})") << qint64(249) << QString();
        QTest::newRow("zero") << QByteArray(R"({"amount": 0})") << qint64(0) << QString();
        QTest::newRow("15 digits") << QByteArray(R"({"amount": "999999999999999"})") << qint64(999999999999999)
                                   << QString();
        QTest::newRow("decimal number") << QByteArray(R"({"amount": 249.5})") << qint64(-1)
                                        << QStringLiteral("not_an_integer");
        QTest::newRow("decimal string") << QByteArray(R"({"amount": "249.5"})") << qint64(-1)
                                        << QStringLiteral("not_an_integer");
        QTest::newRow("decimal string .00")
            << QByteArray(R"({"amount": "249.00"})") << qint64(-1) << QStringLiteral("not_an_integer");
        QTest::newRow("negative string") << QByteArray(R"({"amount": "-5"})") << qint64(-1)
                                         << QStringLiteral("not_an_integer");
        QTest::newRow("negative number") << QByteArray(R"({"amount": -5})") << qint64(-1)
                                         << QStringLiteral("not_an_integer");
        QTest::newRow("plus sign") << QByteArray(R"({"amount": "+5"})") << qint64(-1)
                                   << QStringLiteral("not_an_integer");
        QTest::newRow("exponent string") << QByteArray(R"({"amount": "2e2"})") << qint64(-1)
                                         << QStringLiteral("not_an_integer");
        QTest::newRow("hex string") << QByteArray(R"({"amount": "0x10"})") << qint64(-1)
                                    << QStringLiteral("not_an_integer");
        QTest::newRow("inner blank") << QByteArray(R"({"amount": "2 49"})") << qint64(-1)
                                     << QStringLiteral("not_an_integer");
        QTest::newRow("grouping") << QByteArray(R"({"amount": "1,000"})") << qint64(-1)
                                  << QStringLiteral("not_an_integer");
        QTest::newRow("rupee sign") << QByteArray(R"({"amount": "₹249"})") << qint64(-1)
                                    << QStringLiteral("not_an_integer");
        QTest::newRow("arabic-indic digits")
            << QByteArray(R"({"amount": "٢٤٩"})") << qint64(-1) << QStringLiteral("not_an_integer");
        QTest::newRow("letters") << QByteArray(R"({"amount": "abc"})") << qint64(-1)
                                 << QStringLiteral("not_an_integer");
        QTest::newRow("16 digits") << QByteArray(R"({"amount": "1234567890123456"})") << qint64(-1)
                                   << QStringLiteral("not_an_integer");
        QTest::newRow("huge number") << QByteArray(R"({"amount": 1e300})") << qint64(-1)
                                     << QStringLiteral("not_an_integer");
        QTest::newRow("true") << QByteArray(R"({"amount": true})") << qint64(-1) << QStringLiteral("not_an_integer");
        QTest::newRow("false") << QByteArray(R"({"amount": false})") << qint64(-1) << QStringLiteral("not_an_integer");
        QTest::newRow("array") << QByteArray(R"({"amount": []})") << qint64(-1) << QStringLiteral("not_an_integer");
        QTest::newRow("array of one") << QByteArray(R"({"amount": [249]})") << qint64(-1)
                                      << QStringLiteral("not_an_integer");
        QTest::newRow("object") << QByteArray(R"({"amount": {}})") << qint64(-1) << QStringLiteral("not_an_integer");
        QTest::newRow("null") << QByteArray(R"({"amount": null})") << qint64(-1) << QStringLiteral("missing_field");
        QTest::newRow("empty string") << QByteArray(R"({"amount": ""})") << qint64(-1)
                                      << QStringLiteral("missing_field");
        QTest::newRow("blank string") << QByteArray(R"({"amount": "   "})") << qint64(-1)
                                      << QStringLiteral("missing_field");
        QTest::newRow("absent") << QByteArray(R"({"Amount": 249})") << qint64(-1) << QStringLiteral("missing_field");
    }
    void coercion()
    {
        QFETCH(QByteArray, body);
        QFETCH(qint64, expected);
        QFETCH(QString, reason);
        const JsonFields fields(object(body));
        const QJsonValue value = object(body).value(QStringLiteral("amount"));
        if (expected >= 0) {
            QCOMPARE(fields.requiredInteger(QStringLiteral("amount")), expected);
            QCOMPARE(JsonFields::coerceInteger(value), std::optional<qint64>(expected));
            return;
        }
        if (reason == QLatin1String("not_an_integer"))
            QVERIFY(!JsonFields::coerceInteger(value));
        try {
            fields.requiredInteger(QStringLiteral("amount"));
            QFAIL("accepted");
        } catch (const ApiError &error) {
            QCOMPARE(error.httpStatus(), 400);
            QCOMPARE(error.code(), QStringLiteral("BAD_REQUEST_ERROR"));
            QCOMPARE(error.field(), QStringLiteral("amount"));
            QCOMPARE(error.reason(), reason);
            QVERIFY(error.description().contains(QLatin1String("amount")));
        }
    }

    void strings_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected"); // null: absent (optional) / missing (required)
        QTest::addColumn<QString>("reason");   // for the required read
        QTest::newRow("plain") << QByteArray(R"({"s": "abc"})") << QStringLiteral("abc") << QString();
        QTest::newRow("trimmed") << QByteArray(R"({"s": "  abc\t"})") << QStringLiteral("abc") << QString();
        QTest::newRow("inner blank kept") << QByteArray(R"({"s": " a b "})") << QStringLiteral("a b") << QString();
        QTest::newRow("blank") << QByteArray(R"({"s": "   "})") << QString() << QStringLiteral("missing_field");
        QTest::newRow("null") << QByteArray(R"({"s": null})") << QString() << QStringLiteral("missing_field");
        QTest::newRow("absent") << QByteArray(R"({"t": "abc"})") << QString() << QStringLiteral("missing_field");
        QTest::newRow("number") << QByteArray(R"({"s": 9876543210})") << QString() << QStringLiteral("invalid_type");
        QTest::newRow("bool") << QByteArray(R"({"s": true})") << QString() << QStringLiteral("invalid_type");
        QTest::newRow("array") << QByteArray(R"({"s": ["abc"]})") << QString() << QStringLiteral("invalid_type");
    }
    void strings()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        QFETCH(QString, reason);
        const JsonFields fields(object(body));
        const QString name = QStringLiteral("s");
        if (!expected.isNull()) {
            QCOMPARE(fields.requiredString(name), expected);
            QCOMPARE(fields.optionalString(name), std::optional<QString>(expected));
            return;
        }
        if (reason == QLatin1String("missing_field"))
            QVERIFY(!fields.optionalString(name).has_value());
        try {
            fields.requiredString(name);
            QFAIL("accepted");
        } catch (const ApiError &error) {
            QCOMPARE(error.httpStatus(), 400);
            QCOMPARE(error.field(), name);
            QCOMPARE(error.reason(), reason);
        }
    }

    // Decoding errors of endpoints 5, 6 and 7 name the offending field with a stable reason.
    void decodeErrors_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *name, const char *endpoint, const char *body, const char *field,
                            const char *reason) {
            QTest::newRow(name) << QString::fromLatin1(endpoint) << QByteArray(body) << QString::fromLatin1(field)
                                << QString::fromLatin1(reason);
        };
        row("mobile: empty body", "mobile", R"({})", "phone_number", "missing_field");
        row("mobile: phone blank", "mobile", R"({"phone_number": "  ", "amount": 249, "operator_code": "RJ"})",
            "phone_number", "missing_field");
        row("mobile: phone as number", "mobile",
            R"({"phone_number": 9876543210, "amount": 249, "operator_code": "RJ"})", "phone_number", "invalid_type");
        row("mobile: phone 9 digits", "mobile",
            R"({"phone_number": "987654321", "amount": 249, "operator_code": "RJ"})", "phone_number",
            "invalid_phone_number");
        row("mobile: phone leading 5", "mobile",
            R"({"phone_number": "5876543210", "amount": 249, "operator_code": "RJ"})", "phone_number",
            "invalid_phone_number");
        row("mobile: operator missing", "mobile", R"({"phone_number": "9876543210", "amount": 249})", "operator_code",
            "missing_field");
        row("mobile: operator unknown", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "XX"})", "operator_code",
            "unknown_operator");
        row("mobile: DTH operator", "mobile", R"({"phone_number": "9876543210", "amount": 249, "operator_code": "TS"})",
            "operator_code", "unknown_operator");
        row("mobile: voucher issuer", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "GP"})", "operator_code",
            "unknown_operator");
        row("mobile: lower-case operator", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "rj"})", "operator_code",
            "unknown_operator");
        row("mobile: amount missing", "mobile", R"({"phone_number": "9876543210", "operator_code": "RJ"})", "amount",
            "missing_field");
        row("mobile: amount decimal", "mobile",
            R"({"phone_number": "9876543210", "amount": "249.50", "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile: amount below", "mobile", R"({"phone_number": "9876543210", "amount": 9, "operator_code": "RJ"})",
            "amount", "amount_out_of_range");
        row("mobile: amount above", "mobile",
            R"({"phone_number": "9876543210", "amount": "5000", "operator_code": "RJ"})", "amount",
            "amount_out_of_range");
        row("mobile: reference 65", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})",
            "reference_id", "invalid_reference_id");
        row("mobile: reference charset", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": "a/b"})",
            "reference_id", "invalid_reference_id");
        row("mobile: reference number", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": 17})",
            "reference_id", "invalid_type");
        row("voucher: empty body", "voucher", R"({})", "amount", "missing_field");
        row("voucher: amount 9", "voucher", R"({"amount": 9})", "amount", "amount_out_of_range");
        row("voucher: amount 10001", "voucher", R"({"amount": "10001"})", "amount", "amount_out_of_range");
        row("voucher: amount bool", "voucher", R"({"amount": true})", "amount", "not_an_integer");
        row("voucher: bad email", "voucher", R"({"amount": 100, "customer_email": "asha.example.com"})",
            "customer_email", "invalid_email");
        row("voucher: email number", "voucher", R"({"amount": 100, "customer_email": 42})", "customer_email",
            "invalid_type");
        row("voucher: reference blank inside", "voucher", R"({"amount": 100, "reference_id": "a b"})", "reference_id",
            "invalid_reference_id");
        row("dth: empty body", "dth", R"({})", "number", "missing_field");
        row("dth: operator missing", "dth", R"({"number": "1012345678", "amount": 300})", "operator_code",
            "missing_field");
        row("dth: mobile operator", "dth", R"({"number": "1012345678", "amount": 300, "operator_code": "AT"})",
            "operator_code", "unknown_operator");
        row("dth: number for another operator", "dth",
            R"({"number": "1012345678", "amount": 300, "operator_code": "AD"})", "number", "invalid_subscriber_number");
        row("dth: number letters", "dth", R"({"number": "10123A5678", "amount": 300, "operator_code": "TS"})", "number",
            "invalid_subscriber_number");
        row("dth: number as JSON number", "dth", R"({"number": 1012345678, "amount": 300, "operator_code": "TS"})",
            "number", "invalid_type");
        row("dth: AD amount 49", "dth", R"({"number": "3012345678", "amount": 49, "operator_code": "AD"})", "amount",
            "amount_out_of_range");
        row("dth: amount missing", "dth", R"({"number": "1012345678", "operator_code": "TS"})", "amount",
            "missing_field");
        row("dth: bad reference", "dth",
            R"({"number": "1012345678", "amount": 300, "operator_code": "TS", "reference_id": "ref#1"})",
            "reference_id", "invalid_reference_id");
    }
    void decodeErrors()
    {
        QFETCH(QString, endpoint);
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        try {
            if (endpoint == QLatin1String("mobile"))
                SaleRequest::decodeMobile(object(body), catalog);
            else if (endpoint == QLatin1String("voucher"))
                SaleRequest::decodeVoucher(object(body), catalog);
            else
                SaleRequest::decodeDth(object(body), catalog);
            QFAIL("accepted");
        } catch (const ApiError &error) {
            QCOMPARE(error.httpStatus(), 400);
            QCOMPARE(error.code(), QStringLiteral("BAD_REQUEST_ERROR"));
            QCOMPARE(error.field(), field);
            QCOMPARE(error.reason(), reason);
            QVERIFY(!error.description().isEmpty());
            const QJsonObject envelope = error.toJson().value(QStringLiteral("error")).toObject();
            QCOMPARE(envelope.value(QStringLiteral("field")).toString(), field);
            QCOMPARE(envelope.value(QStringLiteral("reason")).toString(), reason);
        }
    }

    void decodeAccepts()
    {
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        // The spec's client samples send amounts as strings; unknown fields are ignored; strings are trimmed.
        const SaleRequest mobile = SaleRequest::decodeMobile(
            object(R"({"phone_number": " 9876543210 ", "amount": "249", "operator_code": "RJ", "reference_id": " R-1 ",
                       "circle_code": "DL", "extra": [1, 2]})"),
            catalog);
        QCOMPARE(mobile.type, TransactionType::Mobile);
        QCOMPARE(mobile.number, QStringLiteral("9876543210"));
        QCOMPARE(mobile.billAmount, Paise(24900));
        QCOMPARE(mobile.operatorCode, QStringLiteral("RJ"));
        QCOMPARE(mobile.referenceId, QStringLiteral("R-1"));
        const SaleRequest asInteger = SaleRequest::decodeMobile(
            object(R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": "R-1"})"),
            catalog);
        QCOMPARE(asInteger.fingerprint(), mobile.fingerprint());

        const SaleRequest voucher =
            SaleRequest::decodeVoucher(object(R"({"amount": "500", "customer_email": "Asha@Example.com"})"), catalog);
        QCOMPARE(voucher.type, TransactionType::Voucher);
        QCOMPARE(voucher.operatorCode, QStringLiteral("GP"));
        QCOMPARE(voucher.billAmount, Paise(50000));
        QCOMPARE(voucher.customerEmail, QStringLiteral("Asha@Example.com"));
        QVERIFY(voucher.number.isEmpty());
        QVERIFY(voucher.referenceId.isEmpty());
        const SaleRequest voucherLower =
            SaleRequest::decodeVoucher(object(R"({"amount": 500, "customer_email": "asha@example.com"})"), catalog);
        QCOMPARE(voucherLower.fingerprint(), voucher.fingerprint());
        const SaleRequest noEmail =
            SaleRequest::decodeVoucher(object(R"({"amount": 500, "customer_email": null})"), catalog);
        QVERIFY(noEmail.customerEmail.isEmpty());
        QVERIFY(noEmail.fingerprint() != voucher.fingerprint());

        const SaleRequest dth = SaleRequest::decodeDth(
            object(R"({"number": "9876543210", "amount": "300", "operator_code": "AD"})"), catalog);
        QCOMPARE(dth.type, TransactionType::Dth);
        QCOMPARE(dth.number, QStringLiteral("9876543210"));
        QCOMPARE(dth.billAmount, Paise(30000));

        // A different amount, number or operator is a different fingerprint.
        const SaleRequest otherAmount = SaleRequest::decodeMobile(
            object(R"({"phone_number": "9876543210", "amount": 250, "operator_code": "RJ"})"), catalog);
        const SaleRequest otherOperator = SaleRequest::decodeMobile(
            object(R"({"phone_number": "9876543210", "amount": 249, "operator_code": "AT"})"), catalog);
        const SaleRequest otherNumber = SaleRequest::decodeMobile(
            object(R"({"phone_number": "9876543211", "amount": 249, "operator_code": "RJ"})"), catalog);
        QVERIFY(otherAmount.fingerprint() != mobile.fingerprint());
        QVERIFY(otherOperator.fingerprint() != mobile.fingerprint());
        QVERIFY(otherNumber.fingerprint() != mobile.fingerprint());
    }
};

QTEST_GUILESS_MAIN(TestTransactionRecord)
#include "tst_transactionrecord.moc"

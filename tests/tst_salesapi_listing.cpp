// Endpoints 5, 6 and 7 of api-v1.md over real HTTP against the server on port 0 (api-conventions.md): reading sales
// back: the transaction listing, its filters, pages, totals and search, and the day-end report. The shared paths,
// bodies and fixture are in support/salesapitest.h.
#include "salesapitest.h"

class TestSalesApiListing final : public SalesApiTest
{
    Q_OBJECT

private slots:
    // ---- listing --------------------------------------------------------------------------------------------------

    void listingFiltersAndPages()
    {
        // 3 mobile (one FAILED), 2 voucher, 2 DTH; newest first.
        const QList<std::pair<QString, QJsonObject>> sales{
            {kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"), QStringLiteral("L1"))},
            {kVoucher, voucherBody(100, {}, QStringLiteral("L2"))},
            {kDth, dthBody(QStringLiteral("1012345678"), 300, QStringLiteral("TS"), QStringLiteral("L3"))},
            {kMobile, mobileBody(QStringLiteral("9876540000"), 100, QStringLiteral("VI"), QStringLiteral("L4"))},
            {kVoucher, voucherBody(200, {}, QStringLiteral("L5"))},
            {kDth, dthBody(QStringLiteral("01234567890"), 300, QStringLiteral("DT"), QStringLiteral("L6"))},
            {kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"), QStringLiteral("L7"))},
        };
        QList<qint64> ids;
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body);
            QCOMPARE(r.status, 200);
            ids.prepend(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        const auto idsOf = [](const HttpResult &r) {
            QList<qint64> result;
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                result.append(item.toObject().value(QStringLiteral("transaction_id")).toInteger());
            return result;
        };
        const auto query = [](std::initializer_list<std::pair<const char *, QString>> items) {
            QUrlQuery q;
            for (const auto &[key, value] : items)
                q.addQueryItem(QLatin1String(key), value);
            return q;
        };

        HttpResult r = list(QUrlQuery());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("entity")).toString(), QStringLiteral("collection"));
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 7);
        QCOMPARE(r.data().value(QStringLiteral("next_cursor")), QJsonValue(QJsonValue::Null));
        QCOMPARE(idsOf(r), ids);
        // Items are the same records as the status check.
        QCOMPARE(r.data().value(QStringLiteral("items")).toArray().at(0).toObject(), transaction(ids.at(0)).data());

        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("MOBILE")}}))), (QList<qint64>{ids[0], ids[3], ids[6]}));
        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("voucher")}}))), (QList<qint64>{ids[2], ids[5]}));
        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("DTH")}}))), (QList<qint64>{ids[1], ids[4]}));
        QCOMPARE(idsOf(list(query({{"status", QStringLiteral("FAILED")}}))), (QList<qint64>{ids[3]}));
        QCOMPARE(list(query({{"status", QStringLiteral("SUCCESS")}})).data().value(QStringLiteral("count")).toInt(), 6);
        QCOMPARE(list(query({{"status", QStringLiteral("PENDING")}})).data().value(QStringLiteral("count")).toInt(), 0);
        QCOMPARE(idsOf(list(query({{"operator", QStringLiteral("AT")}}))), (QList<qint64>{ids[0], ids[6]}));
        QCOMPARE(idsOf(list(query({{"reference_id", QStringLiteral("L5")}}))), (QList<qint64>{ids[2]}));
        QCOMPARE(list(query({{"reference_id", QStringLiteral("nope")}})).data().value(QStringLiteral("count")).toInt(),
                 0);
        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("MOBILE")}, {"status", QStringLiteral("SUCCESS")}}))),
                 (QList<qint64>{ids[0], ids[6]}));

        // Dates are IST days: today holds everything, yesterday and tomorrow nothing.
        const QDate today = QDateTime::currentDateTimeUtc().toOffsetFromUtc(IstTime::kOffsetSeconds).date();
        const QString todayText = today.toString(Qt::ISODate);
        QCOMPARE(list(query({{"from", todayText}, {"to", todayText}})).data().value(QStringLiteral("count")).toInt(),
                 7);
        QCOMPARE(list(query({{"to", today.addDays(-1).toString(Qt::ISODate)}}))
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 0);
        QCOMPARE(list(query({{"from", today.addDays(1).toString(Qt::ISODate)}}))
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 0);
        QCOMPARE(list(query({{"from", todayText + QStringLiteral(" 00:00:00")}}))
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 7);

        // Cursor pagination: 3 + 3 + 1, no overlap, no gap, then no cursor.
        QList<qint64> paged;
        QString cursor;
        int pages = 0;
        for (;;) {
            QUrlQuery q = query({{"limit", QStringLiteral("3")}});
            if (!cursor.isEmpty())
                q.addQueryItem(QStringLiteral("cursor"), cursor);
            r = list(q);
            QCOMPARE(r.status, 200);
            ++pages;
            paged += idsOf(r);
            QVERIFY(pages <= 4);
            if (r.data().value(QStringLiteral("next_cursor")).isNull())
                break;
            cursor = r.data().value(QStringLiteral("next_cursor")).toString();
            QVERIFY(!cursor.isEmpty());
        }
        QCOMPARE(pages, 3);
        QCOMPARE(paged, ids);
        // With a filter, pages follow the filter.
        r = list(query({{"type", QStringLiteral("MOBILE")}, {"limit", QStringLiteral("2")}}));
        QCOMPARE(idsOf(r), (QList<qint64>{ids[0], ids[3]}));
        r = list(query({{"type", QStringLiteral("MOBILE")},
                        {"limit", QStringLiteral("2")},
                        {"cursor", r.data().value(QStringLiteral("next_cursor")).toString()}}));
        QCOMPARE(idsOf(r), (QList<qint64>{ids[6]}));
    }

    void listingBadQueries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::newRow("type") << QStringLiteral("type") << QStringLiteral("BROADBAND");
        QTest::newRow("status") << QStringLiteral("status") << QStringLiteral("DONE");
        QTest::newRow("from") << QStringLiteral("from") << QStringLiteral("01/01/2025");
        QTest::newRow("to") << QStringLiteral("to") << QStringLiteral("tomorrow");
        QTest::newRow("limit 0") << QStringLiteral("limit") << QStringLiteral("0");
        QTest::newRow("limit 201") << QStringLiteral("limit") << QStringLiteral("201");
        QTest::newRow("limit text") << QStringLiteral("limit") << QStringLiteral("ten");
        QTest::newRow("cursor garbage") << QStringLiteral("cursor") << QStringLiteral("!!");
        QTest::newRow("cursor not a number")
            << QStringLiteral("cursor")
            << QString::fromLatin1(QByteArray("abc").toBase64(QByteArray::Base64UrlEncoding));
    }
    void listingBadQueries()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QUrlQuery q;
        q.addQueryItem(name, value);
        const HttpResult r = list(q);
        QString why;
        QVERIFY2(
            isError(r, 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("invalid_query_parameter"), name, &why),
            qPrintable(why));
    }

    /// The totals line of a text filter counts exactly the rows the listing shows: number and
    /// reference prefixes (either case as typed, upper or lower) and the transaction id.
    void summaryOfTextFilterMatchesListing()
    {
        const QList<std::pair<QString, QString>> sales{{QStringLiteral("9876500001"), QStringLiteral("ORD-7")},
                                                       {QStringLiteral("9812300002"), QStringLiteral("ord-8")},
                                                       {QStringLiteral("7012300003"), QStringLiteral("XY-98")},
                                                       {QStringLiteral("9876540000"), QString()}, // FAILED
                                                       {QStringLiteral("6012300005"), QStringLiteral("98-A")}};
        for (const auto &[phone, reference] : sales)
            QCOMPARE(post(kMobile, mobileBody(phone, 100, QStringLiteral("AT"), reference)).status, 200);
        for (const QString &text :
             {QStringLiteral("98"), QStringLiteral("ord"), QStringLiteral("ORD"), QStringLiteral("XY"),
              QStringLiteral("3"), QStringLiteral("9876"), QStringLiteral("zz")}) {
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("q"), text);
            query.addQueryItem(QStringLiteral("limit"), QStringLiteral("200"));
            const HttpResult listed = list(query);
            QCOMPARE(listed.status, 200);
            QUrl url = m_server->url(kTransactions + QStringLiteral("/summary"));
            url.setQuery(query.toString().replace(QStringLiteral("&limit=200"), QString()));
            const HttpResult summary = m_http.get(url, m_server->pos());
            QCOMPARE(summary.status, 200);
            QVERIFY2(summary.data().value(QStringLiteral("count")).toInteger() ==
                         listed.data().value(QStringLiteral("count")).toInteger(),
                     qPrintable(text + QLatin1Char(' ') + QString::fromUtf8(summary.body)));
        }
        QUrlQuery ord;
        ord.addQueryItem(QStringLiteral("q"), QStringLiteral("ord"));
        QCOMPARE(list(ord).data().value(QStringLiteral("count")).toInteger(), 2);
        QUrlQuery byId;
        byId.addQueryItem(QStringLiteral("q"), QStringLiteral("3"));
        QVERIFY(list(byId).data().value(QStringLiteral("count")).toInteger() >= 1); // transaction 3
    }

    /// The history search (q) is a prefix of the number or reference_id in which `_`, `%` and `\` are plain
    /// characters, on every backend (LIKE ... ESCAPE).
    void searchTreatsWildcardsLiterally()
    {
        const QStringList references{QStringLiteral("ab_1"), QStringLiteral("abx1"), QStringLiteral("ab-2")};
        for (int i = 0; i < references.size(); ++i) {
            QJsonObject body = mobileBody(QStringLiteral("987654321%1").arg(i), 49, QStringLiteral("RJ"));
            body.insert(QStringLiteral("reference_id"), references.at(i));
            QCOMPARE(post(kMobile, body).status, 200);
        }
        const auto found = [this](const QString &q) {
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("q"), QString::fromLatin1(QUrl::toPercentEncoding(q)));
            const HttpResult r = list(query);
            QStringList refs;
            if (r.status != 200)
                refs.append(QStringLiteral("HTTP %1").arg(r.status));
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                refs.append(item.toObject().value(QStringLiteral("reference_id")).toString());
            refs.sort();
            return refs;
        };
        QCOMPARE(found(QStringLiteral("ab_")), QStringList{QStringLiteral("ab_1")});
        QCOMPARE(found(QStringLiteral("ab")),
                 QStringList({QStringLiteral("ab-2"), QStringLiteral("ab_1"), QStringLiteral("abx1")}));
        QCOMPARE(found(QStringLiteral("ab%")), QStringList());
        QCOMPARE(found(QStringLiteral("a%1")), QStringList());
        QCOMPARE(found(QStringLiteral("ab\\")), QStringList());
        QCOMPARE(found(QStringLiteral("9876543211")), QStringList{QStringLiteral("abx1")}); // a number prefix
    }

    /// The day-end report (GET /api/v1/reports/day-end): its lines, hours and wallet agree with the sales of the day.
    void dayEndReport()
    {
        // All sales inside one IST day: in the last 10 s of one, wait for the next.
        QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTimeUtc().toOffsetFromUtc(IstTime::kOffsetSeconds).time() <
                                     QTime(23, 59, 50),
                                 15'000);
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"))).status, 200);
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("9876543211"), 199, QStringLiteral("RJ"))).status, 200);
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("9876540000"), 99, QStringLiteral("AT"))).status, 200);
        const QDateTime sold = QDateTime::currentDateTimeUtc().toOffsetFromUtc(IstTime::kOffsetSeconds);

        QUrl url = m_server->url(QStringLiteral("/api/v1/reports/day-end"));
        url.setQuery(QStringLiteral("date=") + sold.date().toString(QStringLiteral("yyyy-MM-dd")));
        const HttpResult r = m_http.get(url, m_server->admin());
        QCOMPARE(r.status, 200);
        const QJsonObject totals = r.data().value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("success")).toInteger(), 2);
        QCOMPARE(totals.value(QStringLiteral("failed")).toInteger(), 1);
        QCOMPARE(totals.value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹448.00"));
        QCOMPARE(r.data().value(QStringLiteral("lines")).toArray().size(), 2); // (MOBILE, AT) and (MOBILE, RJ)
        const QJsonArray hours = r.data().value(QStringLiteral("hours")).toArray();
        QCOMPARE(hours.size(), 24);
        qint64 success = 0;
        Paise billed = 0;
        for (const QJsonValue &hour : hours) {
            success += hour.toObject().value(QStringLiteral("success")).toInteger();
            billed += Money::parse(hour.toObject().value(QStringLiteral("bill_amount")).toString()).value_or(-1);
        }
        QCOMPARE(success, 2);
        QCOMPARE(billed, Paise(44800));
        QVERIFY(hours.at(sold.time().hour()).toObject().value(QStringLiteral("success")).toInteger() > 0);
        const QJsonObject wallet = r.data().value(QStringLiteral("wallet")).toObject();
        QCOMPARE(Money::parse(wallet.value(QStringLiteral("closing")).toString()).value_or(-1), balance());
    }
};

QTEST_GUILESS_MAIN(TestSalesApiListing)
#include "tst_salesapi_listing.moc"

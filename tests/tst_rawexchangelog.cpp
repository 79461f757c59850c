#include "rawexchangelog.h"
#include "rawhttpclient.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

/// RawExchangeLog pairs the answers a raw client received with the requests it sent, so api_contract can check
/// them (issue 14): request lines are found across pipelined requests, bodies and chunks of any size, and an
/// answer before any request line is recorded with no request.
class TestRawExchangeLog final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_records;

    /// The records written so far, in order.
    QList<QJsonObject> records() const
    {
        QList<QJsonObject> lines;
        for (const QString &name : QDir(m_records.path()).entryList({u"*.jsonl"_s})) {
            QFile file(QDir(m_records.path()).filePath(name));
            if (!file.open(QIODevice::ReadOnly))
                return {};
            for (const QByteArray &line : file.readAll().split('\n')) {
                if (!line.isEmpty())
                    lines.append(QJsonDocument::fromJson(line).object());
            }
        }
        return lines;
    }

    static QByteArray answer(int status, const QByteArray &body)
    {
        return "HTTP/1.1 " + QByteArray::number(status) +
               " X\r\nContent-Type: application/json\r\nX-Request-Id: r\r\n" +
               "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_records.isValid());
        qputenv("RECHARGEDESK_API_RECORD_DIR", m_records.path().toLocal8Bit());
    }
    void init()
    {
        for (const QString &name : QDir(m_records.path()).entryList(QDir::Files))
            QFile::remove(QDir(m_records.path()).filePath(name));
    }

    void pairsPipelinedRequestsInOrder_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::newRow("all at once") << 100'000;
        QTest::newRow("byte by byte") << 1;
        QTest::newRow("7 bytes") << 7;
    }
    void pairsPipelinedRequestsInOrder()
    {
        QFETCH(int, chunk);
        // A body that looks like a request line must be skipped by its Content-Length, not read as one.
        const QByteArray sent = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                                "POST /api/v1/wallet/topups?mode=test HTTP/1.1\r\nContent-Length: 20\r\n\r\n"
                                "GET /fake HTTP/1.1\r\n"
                                "PUT /api/v1/plans/catalogue HTTP/1.1\r\nX-Slow: a";
        RawExchangeLog log;
        for (qsizetype at = 0; at < sent.size(); at += chunk)
            log.sent(QByteArrayView(sent).sliced(at, std::min<qsizetype>(chunk, sent.size() - at)));
        log.answeredAll(answer(200, "{}") + answer(201, "{\"a\":1}") + answer(408, "{}"));

        const QList<QJsonObject> lines = records();
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.at(0).value(u"method"_s).toString(), u"GET"_s);
        QCOMPARE(lines.at(0).value(u"path"_s).toString(), u"/healthz"_s);
        QCOMPARE(lines.at(0).value(u"via"_s).toString(), u"raw"_s);
        QCOMPARE(lines.at(1).value(u"method"_s).toString(), u"POST"_s);
        QCOMPARE(lines.at(1).value(u"path"_s).toString(), u"/api/v1/wallet/topups"_s);
        QCOMPARE(lines.at(1).value(u"query"_s).toString(), u"mode=test"_s);
        QCOMPARE(lines.at(1).value(u"status"_s).toInt(), 201);
        QCOMPARE(lines.at(1).value(u"body_latin1"_s).toString(), u"{\"a\":1}"_s);
        QCOMPARE(lines.at(1).value(u"headers"_s).toObject().value(u"x-request-id"_s).toString(), u"r"_s);
        // The third request's head never finished: its request line still names what the 408 answers.
        QCOMPARE(lines.at(2).value(u"method"_s).toString(), u"PUT"_s);
        QCOMPARE(lines.at(2).value(u"path"_s).toString(), u"/api/v1/plans/catalogue"_s);
        QCOMPARE(lines.at(2).value(u"status"_s).toInt(), 408);
    }

    void answerBeforeAnyRequestHasNoRequest()
    {
        RawExchangeLog log;
        log.sent("GET /hea"); // not a whole request line yet
        RawHttpResponse response;
        QByteArray received = answer(503, "{}") + "HTTP/1.1 200"; // and an incomplete second answer
        QVERIFY(takeRawResponse(received, response));
        log.answered(response);
        log.answeredAll(received);
        const QList<QJsonObject> lines = records();
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines.at(0).value(u"method"_s).toString(), QString());
        QCOMPARE(lines.at(0).value(u"path"_s).toString(), QString());
        QCOMPARE(lines.at(0).value(u"status"_s).toInt(), 503);
    }
};

QTEST_GUILESS_MAIN(TestRawExchangeLog)
#include "tst_rawexchangelog.moc"

#include "http/httpframingtracker.h"

#include <QtTest/QtTest>

using Verdict = HttpFramingTracker::Verdict;

namespace {

constexpr qint64 Limit = HttpFramingTracker::DefaultMaxBodyBytes;
constexpr qsizetype HeaderLimit = HttpFramingTracker::DefaultMaxHeaderBytes;

QByteArray post(QByteArrayView headers, QByteArrayView body)
{
    return "POST /echo HTTP/1.1\r\nHost: localhost\r\n" + headers.toByteArray() + "\r\n" + body.toByteArray();
}

QByteArray postWithLength(qint64 length, QByteArrayView headerName = "Content-Length")
{
    return post(QByteArray(headerName.toByteArray() + ": " + QByteArray::number(length) + "\r\n"),
                QByteArray(static_cast<qsizetype>(length), 'b'));
}

// A GET whose header block (request line to blank line inclusive) is exactly `size` bytes.
QByteArray getWithHeaderBlockOf(qsizetype size)
{
    const QByteArray start = "GET / HTTP/1.1\r\nX-Pad: ";
    const QByteArray end = "\r\n\r\n";
    return start + QByteArray(size - start.size() - end.size(), 'p') + end;
}

QByteArray pipelinedPair()
{
    return post("Content-Length: 11\r\n", "hello world") + "GET /next HTTP/1.1\r\nHost: localhost\r\n\r\n";
}

} // namespace

// Readable verdict names in QCOMPARE failure messages (found by argument-dependent lookup).
char *toString(HttpFramingTracker::Verdict verdict)
{
    switch (verdict) {
    case Verdict::Ok:
        return qstrdup("Ok");
    case Verdict::TooLarge:
        return qstrdup("TooLarge");
    case Verdict::HeadersTooLarge:
        return qstrdup("HeadersTooLarge");
    case Verdict::LengthRequired:
        return qstrdup("LengthRequired");
    case Verdict::BadContentLength:
        return qstrdup("BadContentLength");
    }
    return qstrdup("?");
}

class TestHttpFramingTracker final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void verdicts_data();
    void verdicts();
    void pipelinedPairSplitAtEveryByte_data();
    void pipelinedPairSplitAtEveryByte();
    void pipelinedPairOneByteAtATime();
    void rejectsBeforeBodyArrives();
    void verdictIsSticky();
    void bodyBytesAreNotParsedAsHeaders();
    void bodyLimitExceptions_data();
    void bodyLimitExceptions();
    void exceptionAppliesPerRequestOnOneConnection();
    void authorizedException_data();
    void authorizedException();
    void requestHeadFindsHeaders();
};

void TestHttpFramingTracker::verdicts_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<Verdict>("expected");
    QTest::addColumn<qint64>("completed");

    QTest::newRow("small body") << postWithLength(1024) << Verdict::Ok << qint64(1);
    QTest::newRow("content-length exactly at limit") << postWithLength(Limit) << Verdict::Ok << qint64(1);
    QTest::newRow("content-length limit+1") << postWithLength(Limit + 1) << Verdict::TooLarge << qint64(0);
    QTest::newRow("content-length zero") << postWithLength(0) << Verdict::Ok << qint64(1);
    QTest::newRow("no content-length") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << Verdict::Ok << qint64(1);
    QTest::newRow("huge content-length") << post("Content-Length: 99999999999999999999999\r\n", {}) << Verdict::TooLarge
                                         << qint64(0);

    QTest::newRow("lower-case name over limit")
        << postWithLength(Limit + 1, "content-length") << Verdict::TooLarge << qint64(0);
    QTest::newRow("upper-case name over limit")
        << postWithLength(Limit + 1, "CONTENT-LENGTH") << Verdict::TooLarge << qint64(0);
    QTest::newRow("mixed-case name within limit") << postWithLength(10, "cOnTeNt-LeNgTh") << Verdict::Ok << qint64(1);
    QTest::newRow("whitespace around value")
        << post("Content-Length: \t 5 \t\r\n", "12345") << Verdict::Ok << qint64(1);

    QTest::newRow("chunked") << post("Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\n\r\n")
                             << Verdict::LengthRequired << qint64(0);
    QTest::newRow("chunked lower-case") << post("transfer-encoding: chunked\r\n", {}) << Verdict::LengthRequired
                                        << qint64(0);
    QTest::newRow("chunked with content-length")
        << post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", {}) << Verdict::LengthRequired << qint64(0);
    QTest::newRow("other transfer-encoding")
        << post("Transfer-Encoding: gzip\r\n", {}) << Verdict::LengthRequired << qint64(0);

    QTest::newRow("letters") << post("Content-Length: abc\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("negative") << post("Content-Length: -1\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("plus sign") << post("Content-Length: +5\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("empty value") << post("Content-Length:\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("digits then garbage") << post("Content-Length: 12x\r\n", {}) << Verdict::BadContentLength
                                         << qint64(0);
    QTest::newRow("inner space") << post("Content-Length: 1 2\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("list") << post("Content-Length: 5, 5\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("duplicate conflicting")
        << post("Content-Length: 5\r\nContent-Length: 6\r\n", {}) << Verdict::BadContentLength << qint64(0);
    QTest::newRow("duplicate equal") << post("Content-Length: 5\r\ncontent-length: 5\r\n", {})
                                     << Verdict::BadContentLength << qint64(0);
    QTest::newRow("folded value") << post("Content-Length: 5\r\n 6\r\n", {}) << Verdict::BadContentLength << qint64(0);

    QTest::newRow("header block exactly at limit") << getWithHeaderBlockOf(HeaderLimit) << Verdict::Ok << qint64(1);
    QTest::newRow("header block limit+1")
        << getWithHeaderBlockOf(HeaderLimit + 1) << Verdict::HeadersTooLarge << qint64(0);
    QTest::newRow("huge headers without end")
        << QByteArray("GET / HTTP/1.1\r\n" + QByteArray(HeaderLimit * 4, 'h')) << Verdict::HeadersTooLarge << qint64(0);
    QTest::newRow("many small header lines")
        << QByteArray("GET / HTTP/1.1\r\n" + QByteArray("X-A: b\r\n").repeated(HeaderLimit / 8 + 1) + "\r\n")
        << Verdict::HeadersTooLarge << qint64(0);

    QTest::newRow("bare LF line endings")
        << QByteArray("POST / HTTP/1.1\nHost: x\nContent-Length: 3\n\nabcGET / HTTP/1.1\n\n") << Verdict::Ok
        << qint64(2);
    QTest::newRow("empty lines before request")
        << QByteArray("\r\n\r\n" + postWithLength(3) + "\r\n" + postWithLength(2)) << Verdict::Ok << qint64(2);
    QTest::newRow("pipelined pair") << pipelinedPair() << Verdict::Ok << qint64(2);
}

void TestHttpFramingTracker::verdicts()
{
    QFETCH(QByteArray, input);
    QFETCH(Verdict, expected);
    QFETCH(qint64, completed);

    HttpFramingTracker tracker;
    QCOMPARE(tracker.feed(input), expected);
    QCOMPARE(tracker.verdict(), expected);
    QCOMPARE(tracker.completedRequests(), completed);
}

void TestHttpFramingTracker::pipelinedPairSplitAtEveryByte_data()
{
    QTest::addColumn<qsizetype>("split");
    const QByteArray input = pipelinedPair();
    for (qsizetype split = 0; split <= input.size(); ++split)
        QTest::addRow("split at %lld", static_cast<long long>(split)) << split;
}

void TestHttpFramingTracker::pipelinedPairSplitAtEveryByte()
{
    QFETCH(qsizetype, split);
    const QByteArray input = pipelinedPair();

    HttpFramingTracker tracker;
    QCOMPARE(tracker.feed(QByteArrayView(input).first(split)), Verdict::Ok);
    QCOMPARE(tracker.feed(QByteArrayView(input).sliced(split)), Verdict::Ok);
    QCOMPARE(tracker.completedRequests(), qint64(2));
    QVERIFY(tracker.isBetweenRequests());
}

void TestHttpFramingTracker::pipelinedPairOneByteAtATime()
{
    const QByteArray input = pipelinedPair();
    const qsizetype firstRequestEnd = input.indexOf("GET /next");

    HttpFramingTracker tracker;
    for (qsizetype i = 0; i < input.size(); ++i) {
        QCOMPARE(tracker.feed(QByteArrayView(input).sliced(i, 1)), Verdict::Ok);
        const qint64 expected = i + 1 < firstRequestEnd ? 0 : (i + 1 < input.size() ? 1 : 2);
        QCOMPARE(tracker.completedRequests(), expected);
    }
    QVERIFY(tracker.isBetweenRequests());
}

void TestHttpFramingTracker::rejectsBeforeBodyArrives()
{
    HttpFramingTracker tracker(100);
    QCOMPARE(tracker.feed("POST / HTTP/1.1\r\nContent-Length: 101\r\n"), Verdict::Ok);
    QCOMPARE(tracker.feed("\r\n"), Verdict::TooLarge);
}

void TestHttpFramingTracker::verdictIsSticky()
{
    HttpFramingTracker tracker;
    QCOMPARE(tracker.feed(post("Transfer-Encoding: chunked\r\n", {})), Verdict::LengthRequired);
    QCOMPARE(tracker.feed(postWithLength(1)), Verdict::LengthRequired);
    QCOMPARE(tracker.completedRequests(), qint64(0));
    QVERIFY(!tracker.isBetweenRequests());
}

void TestHttpFramingTracker::bodyBytesAreNotParsedAsHeaders()
{
    const QByteArray body = "Content-Length: 999999999\r\nTransfer-Encoding: chunked\r\n\r\n";
    HttpFramingTracker tracker;
    const QByteArray header = "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    QCOMPARE(tracker.feed(post(header, body)), Verdict::Ok);
    QCOMPARE(tracker.completedRequests(), qint64(1));
    QVERIFY(tracker.isBetweenRequests());
}

void TestHttpFramingTracker::bodyLimitExceptions_data()
{
    // Default limit 100 bytes; PUT /upload/catalogue may carry 1000.
    QTest::addColumn<QByteArray>("requestLine");
    QTest::addColumn<qint64>("contentLength");
    QTest::addColumn<Verdict>("expected");
    QTest::addColumn<qint64>("appliedLimit");

    QTest::newRow("exception path at its limit")
        << QByteArray("PUT /upload/catalogue HTTP/1.1") << qint64(1000) << Verdict::Ok << qint64(1000);
    QTest::newRow("exception path over its limit")
        << QByteArray("PUT /upload/catalogue HTTP/1.1") << qint64(1001) << Verdict::TooLarge << qint64(1000);
    QTest::newRow("exception path with query")
        << QByteArray("PUT /upload/catalogue?dry=1 HTTP/1.1") << qint64(1000) << Verdict::Ok << qint64(1000);
    QTest::newRow("exception path, extra slashes")
        << QByteArray("PUT //upload/catalogue/ HTTP/1.1") << qint64(1000) << Verdict::Ok << qint64(1000);
    QTest::newRow("absolute-form target") << QByteArray("PUT http://localhost:8080/upload/catalogue HTTP/1.1")
                                          << qint64(1000) << Verdict::Ok << qint64(1000);
    QTest::newRow("other method, same path")
        << QByteArray("POST /upload/catalogue HTTP/1.1") << qint64(101) << Verdict::TooLarge << qint64(100);
    QTest::newRow("method is case-sensitive")
        << QByteArray("put /upload/catalogue HTTP/1.1") << qint64(101) << Verdict::TooLarge << qint64(100);
    QTest::newRow("other path") << QByteArray("PUT /upload/catalogue2 HTTP/1.1") << qint64(101) << Verdict::TooLarge
                                << qint64(100);
    QTest::newRow("path prefix only") << QByteArray("PUT /upload HTTP/1.1") << qint64(101) << Verdict::TooLarge
                                      << qint64(100);
    QTest::newRow("longer path") << QByteArray("PUT /upload/catalogue/x HTTP/1.1") << qint64(101) << Verdict::TooLarge
                                 << qint64(100);
    QTest::newRow("percent-encoded path is not the same")
        << QByteArray("PUT /upload/%63atalogue HTTP/1.1") << qint64(101) << Verdict::TooLarge << qint64(100);
    QTest::newRow("other path within default")
        << QByteArray("PUT /other HTTP/1.1") << qint64(100) << Verdict::Ok << qint64(100);
    QTest::newRow("request line without target")
        << QByteArray("PUT") << qint64(101) << Verdict::TooLarge << qint64(100);
}

void TestHttpFramingTracker::bodyLimitExceptions()
{
    QFETCH(QByteArray, requestLine);
    QFETCH(qint64, contentLength);
    QFETCH(Verdict, expected);
    QFETCH(qint64, appliedLimit);

    HttpFramingTracker tracker(100, HeaderLimit, {{"PUT", "/upload/catalogue", 1000}});
    const QByteArray request = requestLine + "\r\nHost: x\r\nContent-Length: " + QByteArray::number(contentLength) +
                               "\r\n\r\n" + QByteArray(static_cast<qsizetype>(contentLength), 'b');
    QCOMPARE(tracker.feed(request), expected);
    QCOMPARE(tracker.lastBodyLimit(), appliedLimit);
    QCOMPARE(tracker.completedRequests(), qint64(expected == Verdict::Ok ? 1 : 0));
}

void TestHttpFramingTracker::exceptionAppliesPerRequestOnOneConnection()
{
    // A large upload on the exception path, then a small-limit request on the same keep-alive connection: the
    // larger limit must not carry over.
    HttpFramingTracker tracker(100, HeaderLimit, {{"PUT", "/upload/catalogue", 1000}});
    QCOMPARE(tracker.feed(
                 QByteArray("PUT /upload/catalogue HTTP/1.1\r\nContent-Length: 900\r\n\r\n" + QByteArray(900, 'b'))),
             Verdict::Ok);
    QCOMPARE(tracker.completedRequests(), qint64(1));
    QCOMPARE(tracker.feed(post("Content-Length: 101\r\n", {})), Verdict::TooLarge);
    QCOMPARE(tracker.lastBodyLimit(), qint64(100));
}

void TestHttpFramingTracker::authorizedException_data()
{
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<qint64>("contentLength");
    QTest::addColumn<Verdict>("expected");
    QTest::addColumn<qint64>("appliedLimit");
    QTest::addColumn<int>("questions");
    QTest::addColumn<bool>("refused");

    QTest::newRow("approved, large") << QByteArray("Basic good") << qint64(900) << Verdict::Ok << qint64(1000) << 1
                                     << false;
    QTest::newRow("not approved, large") << QByteArray("Basic bad") << qint64(900) << Verdict::TooLarge << qint64(100)
                                         << 1 << true;
    QTest::newRow("no credentials, large")
        << QByteArray() << qint64(101) << Verdict::TooLarge << qint64(100) << 1 << true;
    // Within the default limit the check is not asked at all.
    QTest::newRow("no credentials, small") << QByteArray() << qint64(100) << Verdict::Ok << qint64(1000) << 0 << false;
    QTest::newRow("approved, over the exception")
        << QByteArray("Basic good") << qint64(1001) << Verdict::TooLarge << qint64(1000) << 1 << false;
}

void TestHttpFramingTracker::authorizedException()
{
    QFETCH(QByteArray, authorization);
    QFETCH(qint64, contentLength);
    QFETCH(Verdict, expected);
    QFETCH(qint64, appliedLimit);
    QFETCH(int, questions);
    QFETCH(bool, refused);

    QList<QByteArray> asked;
    HttpFramingTracker tracker(100, HeaderLimit, {{"PUT", "/upload/catalogue", 1000, true}},
                               [&asked](const HttpRequestHead &head) {
                                   asked.append(head.header("Authorization").toByteArray());
                                   return head.method() == "PUT" && head.header("authorization") == "Basic good";
                               });
    const QByteArray head = "PUT /upload/catalogue?v=2 HTTP/1.1\r\nHost: x\r\n" +
                            (authorization.isEmpty() ? QByteArray() : "Authorization:  " + authorization + " \r\n") +
                            "Content-Length: " + QByteArray::number(contentLength) + "\r\n\r\n";
    // The verdict comes with the head, before any body byte.
    QCOMPARE(tracker.feed(head), expected);
    QCOMPARE(tracker.lastBodyLimit(), appliedLimit);
    QCOMPARE(tracker.lastAllowanceRefused(), refused);
    QCOMPARE(asked.size(), questions);
    if (questions > 0)
        QCOMPARE(asked.first(), authorization);
}

void TestHttpFramingTracker::requestHeadFindsHeaders()
{
    const HttpRequestHead head("PUT /a/b?c=d HTTP/1.1\r\nHost: shop\r\nX-Empty:\r\nauthorization:\tBasic x \r\n"
                               "Authorization: second\n\r\nNot: a header\r\n");
    QCOMPARE(head.method(), QByteArrayView("PUT"));
    QCOMPARE(head.target(), QByteArrayView("/a/b?c=d"));
    QCOMPARE(head.header("AUTHORIZATION"), QByteArrayView("Basic x"));
    QCOMPARE(head.header("host"), QByteArrayView("shop"));
    QVERIFY(head.header("x-empty").isEmpty());
    QVERIFY(head.header("not").isEmpty()); // after the blank line
    QVERIFY(HttpRequestHead("GARBAGE\r\n\r\n").method().isEmpty());
}

QTEST_GUILESS_MAIN(TestHttpFramingTracker)
#include "tst_httpframingtracker.moc"

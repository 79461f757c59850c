#include "rawhttpclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>

namespace {

QByteArray headerIn(const QList<QByteArray> &headerLines, QByteArrayView name)
{
    for (const QByteArray &line : headerLines) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && QByteArrayView(line).first(colon).compare(name, Qt::CaseInsensitive) == 0)
            return line.sliced(colon + 1).trimmed();
    }
    return {};
}

/// Removes one message (start line, header lines, a Content-Length body) from the front of @p buffer; false while
/// it is incomplete. @p whole gets its bytes as received.
bool takeMessage(QByteArray &buffer, QByteArray &startLine, QList<QByteArray> &headerLines, QByteArray &body,
                 QByteArray *whole = nullptr)
{
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return false;
    const QList<QByteArray> lines = buffer.first(headEnd).split('\n');
    QList<QByteArray> headers;
    for (qsizetype i = 1; i < lines.size(); ++i)
        headers.append(lines.at(i).trimmed());
    const qint64 length = headerIn(headers, "Content-Length").toLongLong();
    if (buffer.size() < headEnd + 4 + length)
        return false;
    startLine = lines.value(0).trimmed();
    headerLines = headers;
    body = buffer.mid(headEnd + 4, length);
    if (whole)
        *whole = buffer.first(headEnd + 4 + length);
    buffer.remove(0, headEnd + 4 + length);
    return true;
}

} // namespace

QByteArray RawHttpResponse::header(QByteArrayView name) const
{
    return headerIn(headerLines, name);
}

bool takeRawResponse(QByteArray &buffer, RawHttpResponse &out)
{
    QByteArray statusLine;
    RawHttpResponse response;
    if (!takeMessage(buffer, statusLine, response.headerLines, response.body))
        return false;
    response.status = statusLine.split(' ').value(1).toInt();
    out = response;
    return true;
}

QByteArray RawHttpRequest::header(QByteArrayView name) const
{
    return headerIn(headerLines, name);
}

bool takeRawRequest(QByteArray &buffer, RawHttpRequest &out)
{
    return takeMessage(buffer, out.requestLine, out.headerLines, out.body, &out.bytes);
}

QByteArray rawRequestHead(QByteArrayView method, QByteArrayView target, qint64 contentLength,
                          QByteArrayView contentType, QByteArrayView authorization)
{
    QByteArray head = method.toByteArray() + ' ' + target.toByteArray() + " HTTP/1.1\r\nHost: localhost\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType.toByteArray() + "\r\n";
    if (!authorization.isEmpty())
        head += "Authorization: " + authorization.toByteArray() + "\r\n";
    return head + "Content-Length: " + QByteArray::number(contentLength) + "\r\n\r\n";
}

RawHttpClient::RawHttpClient(quint16 port, const QHostAddress &source, int timeoutMs) : m_timeoutMs(timeoutMs)
{
    QObject::connect(&m_socket, &QIODevice::readyRead, &m_socket, [this] { m_received += m_socket.readAll(); });
    if (!source.isNull())
        m_socket.bind(source);
    m_socket.connectToHost(QHostAddress::LocalHost, port);
}

RawHttpClient::~RawHttpClient()
{
    m_log.answeredAll(m_received);
}

void RawHttpClient::send(QByteArrayView bytes)
{
    m_log.sent(bytes);
    m_socket.write(bytes.constData(), bytes.size());
}

bool RawHttpClient::waitForResponse(RawHttpResponse &out)
{
    if (!QTest::qWaitFor([&] { return takeRawResponse(m_received, out); }, m_timeoutMs))
        return false;
    m_log.answered(out);
    return true;
}

bool RawHttpClient::waitForServerClose()
{
    return QTest::qWaitFor([&] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, m_timeoutMs);
}

bool RawHttpClient::hasCompleteResponse() const
{
    QByteArray copy = m_received;
    RawHttpResponse ignored;
    return takeRawResponse(copy, ignored);
}

qint64 RawHttpClient::streamUntilAnswered(qint64 bytes)
{
    const QByteArray chunk(64 * 1024, 'b');
    qint64 sent = 0;
    QElapsedTimer elapsed;
    elapsed.start();
    while (sent < bytes && !hasCompleteResponse() && m_socket.state() == QAbstractSocket::ConnectedState &&
           elapsed.elapsed() < 3 * m_timeoutMs) {
        if (m_socket.bytesToWrite() < 2 * chunk.size()) {
            const qint64 n = std::min<qint64>(chunk.size(), bytes - sent);
            send(QByteArrayView(chunk).first(static_cast<qsizetype>(n)));
            sent += n;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return sent;
}

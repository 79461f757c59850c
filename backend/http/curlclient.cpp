#include "curlclient.h"

#include <QSocketNotifier>

#include <algorithm>
#include <cstring>
#include <curl/curl.h>
#include <mutex>

namespace {

CURLM *multiOf(void *handle)
{
    return static_cast<CURLM *>(handle);
}

/// curl_global_init() once per process, before the first handle (libcurl's rule).
void initialiseCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

} // namespace

/// One call on the wire: the request as sent (curl reads its body and header list until it ends) and what came back.
struct CurlClient::Transfer
{
    CURL *easy = nullptr;
    Request request;
    Response response;
    Done done;
    curl_slist *headerList = nullptr;
    char errorBuffer[CURL_ERROR_SIZE] = {};

    ~Transfer() { curl_slist_free_all(headerList); }
};

/// The notifiers of one socket curl asked to watch.
struct CurlClient::SocketWatch
{
    QSocketNotifier read;
    QSocketNotifier write;

    SocketWatch(int socket, QObject *parent)
        : read(socket, QSocketNotifier::Read, parent), write(socket, QSocketNotifier::Write, parent)
    {}
};

QByteArray CurlClient::Response::header(QByteArrayView name) const
{
    for (const auto &[headerName, value] : headers)
        if (headerName.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return QByteArray();
}

CurlClient::CurlClient(int maxConnectionsPerHost, QObject *parent) : QObject(parent)
{
    initialiseCurl();
    m_multi = curl_multi_init();
    CURLM *multi = multiOf(m_multi);
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &CurlClient::onSocket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &CurlClient::onTimer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, long(maxConnectionsPerHost));
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, long(maxConnectionsPerHost));
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { act(CURL_SOCKET_TIMEOUT, 0); });
}

CurlClient::~CurlClient()
{
    CURLM *multi = multiOf(m_multi);
    for (const std::unique_ptr<Transfer> &transfer : m_transfers) {
        curl_multi_remove_handle(multi, transfer->easy);
        curl_easy_cleanup(transfer->easy);
    }
    m_transfers.clear();
    for (void *easy : m_idleEasy)
        curl_easy_cleanup(static_cast<CURL *>(easy));
    curl_multi_cleanup(multi); // closes the kept-alive connections (and tells onSocket)
    qDeleteAll(m_watches);
}

void *CurlClient::easyHandle()
{
    if (m_idleEasy.empty())
        return curl_easy_init();
    void *easy = m_idleEasy.back();
    m_idleEasy.pop_back();
    return easy;
}

void CurlClient::send(Request request, Done done)
{
    auto transfer = std::make_unique<Transfer>();
    transfer->request = std::move(request);
    transfer->done = std::move(done);
    CURL *easy = static_cast<CURL *>(easyHandle());
    transfer->easy = easy;
    const Request &r = transfer->request;

    curl_easy_setopt(easy, CURLOPT_URL, r.url.constData());
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_PROXY, ""); // no proxy, also none from the environment
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, long(std::max(1, r.timeoutMs)));
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->errorBuffer);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer.get());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &CurlClient::onBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer.get());
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &CurlClient::onHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer.get());
    if (r.maxAnswerBytes > 0)
        curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(r.maxAnswerBytes));
    if (r.method == "POST") {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(r.body.size()));
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, r.body.constData());
    } else {
        curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    }
    if (r.freshConnection) {
        curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
        curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
    }
    for (const QByteArray &line : r.headers)
        transfer->headerList = curl_slist_append(transfer->headerList, line.constData());
    // No "Expect: 100-continue" pause before a body.
    transfer->headerList = curl_slist_append(transfer->headerList, "Expect:");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer->headerList);

    m_transfers.push_back(std::move(transfer));
    // Nothing is sent here: curl asks onTimer() for a 0 ms timeout and starts from the event loop.
    if (const CURLMcode added = curl_multi_add_handle(multiOf(m_multi), easy); added != CURLM_OK) {
        Transfer *failed = m_transfers.back().get();
        failed->response.error = QString::fromUtf8(curl_multi_strerror(added));
        QMetaObject::invokeMethod(
            this,
            [this, failed] {
                const auto it = std::find_if(m_transfers.begin(), m_transfers.end(),
                                             [failed](const auto &t) { return t.get() == failed; });
                if (it == m_transfers.end())
                    return;
                std::unique_ptr<Transfer> own = std::move(*it);
                m_transfers.erase(it);
                curl_easy_reset(own->easy);
                m_idleEasy.push_back(own->easy);
                own->done(std::move(own->response));
            },
            Qt::QueuedConnection);
    }
}

int CurlClient::onSocket(void *, int socket, int what, void *client, void *)
{
    static_cast<CurlClient *>(client)->watch(socket, what);
    return 0;
}

void CurlClient::watch(int socket, int what)
{
    SocketWatch *watch = m_watches.value(socket);
    if (!watch) {
        if (what == CURL_POLL_REMOVE)
            return;
        watch = new SocketWatch(socket, this);
        watch->read.setEnabled(false);
        watch->write.setEnabled(false);
        connect(&watch->read, &QSocketNotifier::activated, this, [this, socket] { act(socket, CURL_CSELECT_IN); });
        connect(&watch->write, &QSocketNotifier::activated, this, [this, socket] { act(socket, CURL_CSELECT_OUT); });
        m_watches.insert(socket, watch);
    }
    // Kept when curl drops the socket: the next connection usually gets the same number.
    watch->read.setEnabled(what == CURL_POLL_IN || what == CURL_POLL_INOUT);
    watch->write.setEnabled(what == CURL_POLL_OUT || what == CURL_POLL_INOUT);
}

int CurlClient::onTimer(void *, long timeoutMs, void *client)
{
    auto *self = static_cast<CurlClient *>(client);
    if (timeoutMs < 0)
        self->m_timer.stop();
    else
        self->m_timer.start(int(std::min<long>(timeoutMs, 24L * 3600 * 1000)));
    return 0;
}

std::size_t CurlClient::onBody(char *data, std::size_t size, std::size_t count, void *transfer)
{
    auto *t = static_cast<Transfer *>(transfer);
    const std::size_t n = size * count;
    if (t->request.maxAnswerBytes > 0 && t->response.body.size() + qint64(n) > t->request.maxAnswerBytes) {
        t->response.tooLarge = true;
        return 0; // curl stops the call: CURLE_WRITE_ERROR
    }
    t->response.body.append(data, qsizetype(n));
    return n;
}

std::size_t CurlClient::onHeader(char *data, std::size_t size, std::size_t count, void *transfer)
{
    auto *t = static_cast<Transfer *>(transfer);
    const std::size_t n = size * count;
    const QByteArrayView line(data, qsizetype(n));
    if (line.startsWith("HTTP/")) { // a new answer's status line (after a 1xx answer, the final one)
        t->response.headers.clear();
        return n;
    }
    const qsizetype colon = line.indexOf(':');
    if (colon > 0)
        t->response.headers.append(
            {line.first(colon).trimmed().toByteArray(), line.sliced(colon + 1).trimmed().toByteArray()});
    return n;
}

void CurlClient::act(int socket, int events)
{
    int running = 0;
    curl_multi_socket_action(multiOf(m_multi), socket, events, &running);
    finishDone();
}

void CurlClient::finishDone()
{
    std::vector<std::unique_ptr<Transfer>> finished;
    int queued = 0;
    while (CURLMsg *message = curl_multi_info_read(multiOf(m_multi), &queued)) {
        if (message->msg != CURLMSG_DONE)
            continue;
        CURL *easy = message->easy_handle;
        const CURLcode result = message->data.result;
        Transfer *transfer = nullptr;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, &transfer);
        curl_multi_remove_handle(multiOf(m_multi), easy);
        Response &response = transfer->response;
        if (result == CURLE_OK) {
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            response.httpStatus = int(status);
        } else {
            response.httpStatus = 0;
            response.body.clear();
            response.tooLarge = response.tooLarge || result == CURLE_FILESIZE_EXCEEDED;
            response.timedOut = result == CURLE_OPERATION_TIMEDOUT;
            response.error = QString::fromUtf8(transfer->errorBuffer[0] != '\0' ? transfer->errorBuffer
                                                                                : curl_easy_strerror(result));
        }
        const auto it = std::find_if(m_transfers.begin(), m_transfers.end(),
                                     [transfer](const auto &t) { return t.get() == transfer; });
        finished.push_back(std::move(*it));
        m_transfers.erase(it);
        curl_easy_reset(easy);
        m_idleEasy.push_back(easy);
    }
    // After curl's queue is read: a `done` may start the next call.
    for (std::unique_ptr<Transfer> &transfer : finished)
        transfer->done(std::move(transfer->response));
}

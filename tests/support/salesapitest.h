#pragma once

// What the salesapi_* suites share (they were one tst_salesapi.cpp, split by subject in issue 14): the paths and
// request bodies of endpoints 5, 6 and 7 of api-v1.md, and SalesApiTest, a base class that starts the server on
// port 0 before each test and reads the store and the API back.

#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "money.h"
#include "operatorcatalog.h"
#include "rawhttpclient.h"
#include "store/transactionrepository.h"
#include "testserver.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QObject>
#include <QRegularExpression>
#include <QSet>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

#include <memory>

inline const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
inline const QString kVoucher = QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
inline const QString kDth = QStringLiteral("/api/v1/recharge/dth/initiate-transaction");
inline const QString kTransactions = QStringLiteral("/api/v1/transactions");
inline const QString kWallet = QStringLiteral("/api/v1/wallet");

inline QString pathFor(const QString &endpoint)
{
    if (endpoint == QLatin1String("mobile"))
        return kMobile;
    if (endpoint == QLatin1String("voucher"))
        return kVoucher;
    return kDth;
}

inline QJsonObject mobileBody(const QString &phone = QStringLiteral("9876543210"), const QJsonValue &amount = 249,
                              const QString &op = QStringLiteral("RJ"), const QString &reference = {})
{
    QJsonObject body{{QStringLiteral("phone_number"), phone},
                     {QStringLiteral("amount"), amount},
                     {QStringLiteral("operator_code"), op}};
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

inline QJsonObject dthBody(const QString &number, const QJsonValue &amount, const QString &op,
                           const QString &reference = {})
{
    QJsonObject body{
        {QStringLiteral("number"), number}, {QStringLiteral("amount"), amount}, {QStringLiteral("operator_code"), op}};
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

inline QJsonObject voucherBody(const QJsonValue &amount, const QString &email = {}, const QString &reference = {})
{
    QJsonObject body{{QStringLiteral("amount"), amount}};
    if (!email.isEmpty())
        body.insert(QStringLiteral("customer_email"), email);
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

inline QString keyIdOf(const QByteArray &authorization)
{
    const QByteArray decoded = QByteArray::fromBase64(authorization.mid(6));
    return QString::fromLatin1(decoded.left(decoded.indexOf(':')));
}

inline const QRegularExpression kRequestId(QStringLiteral("^req_[0-9a-f]{16}$"));
inline const QRegularExpression kRedeemCode(QStringLiteral("^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$"));
inline const QRegularExpression kDatetime(QStringLiteral("^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$"));

/// Sends `request` on a fresh connection and reads one response (for requests QNetworkAccessManager will not send
/// as needed); status 0 when none came. Waits spin the event loop, since the server under test runs on this thread.
inline RawHttpResponse rawExchange(quint16 port, const QByteArray &request)
{
    RawHttpClient client(port, QHostAddress(), 15'000);
    RawHttpResponse response;
    if (client.waitForConnected()) {
        client.send(request);
        [[maybe_unused]] const bool answered = client.waitForResponse(response);
    }
    return response;
}

/// The server on port 0, fresh for each test (init() and cleanup() are inherited as QtTest slots), and the
/// helpers the suites read it with. A suite derives from it and adds its test functions as private slots.
class SalesApiTest : public QObject
{
    Q_OBJECT

protected:
    /// Counts of everything a request could write, across all accounts.
    struct Snapshot
    {
        qint64 transactions = 0;
        qint64 ledgerRows = 0;
        qint64 settlements = 0;
        qint64 balances = 0;
        bool operator==(const Snapshot &) const = default;
    };

    std::unique_ptr<ManualClock> m_manualClock; ///< outlives m_server when a test uses it
    std::unique_ptr<TestServer> m_server;
    HttpClient m_http;
    const OperatorCatalog m_catalog = OperatorCatalog::builtIn();

    qint64 scalar(const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = m_server->db().run(sql, values);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }
    Snapshot snapshot()
    {
        return Snapshot{scalar(QStringLiteral("SELECT COUNT(*) FROM transactions")),
                        scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger")),
                        scalar(QStringLiteral("SELECT COUNT(*) FROM settlements")),
                        scalar(QStringLiteral("SELECT COALESCE(SUM(balance), 0) FROM wallets"))};
    }
    HttpResult post(const QString &path, const QJsonObject &body, const QByteArray &auth)
    {
        return m_http.postJson(m_server->url(path), body, auth);
    }
    HttpResult post(const QString &path, const QJsonObject &body) { return post(path, body, m_server->pos()); }
    HttpResult postRaw(const QString &path, const QByteArray &body, const QByteArray &contentType,
                       const QByteArray &auth = {})
    {
        QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", auth.isEmpty() ? m_server->pos() : auth}};
        if (!contentType.isEmpty())
            headers.append({"Content-Type", contentType});
        return m_http.send("POST", m_server->url(path), body, headers);
    }
    HttpResult get(const QString &path, const QByteArray &auth) { return m_http.get(m_server->url(path), auth); }
    HttpResult get(const QString &path) { return get(path, m_server->pos()); }
    HttpResult list(const QUrlQuery &query, const QByteArray &auth = {})
    {
        QUrl url = m_server->url(kTransactions);
        url.setQuery(query);
        return m_http.get(url, auth.isEmpty() ? m_server->pos() : auth);
    }
    HttpResult transaction(qint64 id, const QByteArray &auth = {})
    {
        return get(kTransactions + QLatin1Char('/') + QString::number(id), auth.isEmpty() ? m_server->pos() : auth);
    }
    QString statusOf(qint64 id)
    {
        return transaction(id).data().value(QStringLiteral("transaction_status")).toString();
    }
    qint64 balance(const QByteArray &auth = {})
    {
        const HttpResult r = get(kWallet, auth.isEmpty() ? m_server->pos() : auth);
        return r.status == 200 ? r.data().value(QStringLiteral("balance_paise")).toInteger(-1) : -1;
    }
    void topup(qint64 rupees)
    {
        const HttpResult r =
            post(QStringLiteral("/api/v1/wallet/topups"),
                 QJsonObject{{QStringLiteral("amount"), rupees}, {QStringLiteral("note"), QStringLiteral("tests")}},
                 m_server->admin());
        QCOMPARE(r.status, 201);
    }
    /// Every ledger row of the caller's wallet, through the admin endpoint's pages.
    QList<QJsonObject> ledger(int pageSize)
    {
        QList<QJsonObject> rows;
        QString cursor;
        for (int page = 0; page < 1000; ++page) {
            QUrl url = m_server->url(QStringLiteral("/api/v1/wallet/ledger"));
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("limit"), QString::number(pageSize));
            if (!cursor.isEmpty())
                query.addQueryItem(QStringLiteral("cursor"), cursor);
            url.setQuery(query);
            const HttpResult r = m_http.get(url, m_server->admin());
            if (r.status != 200)
                return {};
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                rows.append(item.toObject());
            const QJsonValue next = r.data().value(QStringLiteral("next_cursor"));
            if (next.isNull())
                break;
            cursor = next.toString();
        }
        return rows;
    }
    /// Checks the error envelope of api-conventions.md.
    static bool isError(const HttpResult &r, int status, const QString &code, const QString &reason,
                        const QJsonValue &field, QString *why)
    {
        const QJsonObject e = r.error();
        *why = QStringLiteral("%1 %2").arg(r.status).arg(QString::fromUtf8(r.body));
        return r.status == status && e.value(QStringLiteral("code")).toString() == code &&
               e.value(QStringLiteral("reason")).toString() == reason && e.value(QStringLiteral("field")) == field &&
               !e.value(QStringLiteral("description")).toString().isEmpty() &&
               r.json().keys() == QStringList{QStringLiteral("error")} &&
               r.header("Content-Type").startsWith("application/json");
    }
    /// Fires all requests before waiting for any, over several connections at once.
    QList<HttpResult> concurrently(const QList<std::pair<QString, QJsonObject>> &requests, const QByteArray &auth)
    {
        std::vector<std::unique_ptr<QNetworkAccessManager>> managers;
        for (int i = 0; i < 4; ++i)
            managers.push_back(std::make_unique<QNetworkAccessManager>());
        QList<QNetworkReply *> replies;
        for (qsizetype i = 0; i < requests.size(); ++i) {
            QNetworkRequest request(m_server->url(requests.at(i).first));
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            request.setRawHeader("Authorization", auth);
            replies.append(managers.at(size_t(i) % managers.size())
                               ->post(request, QJsonDocument(requests.at(i).second).toJson(QJsonDocument::Compact)));
        }
        QEventLoop loop;
        int pending = int(replies.size());
        for (QNetworkReply *reply : std::as_const(replies)) {
            QObject::connect(reply, &QNetworkReply::finished, &loop, [&pending, &loop] {
                if (--pending == 0)
                    loop.quit();
            });
        }
        QTimer::singleShot(60'000, &loop, &QEventLoop::quit);
        if (pending > 0)
            loop.exec();
        QList<HttpResult> results;
        for (QNetworkReply *reply : std::as_const(replies)) {
            HttpResult r;
            r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            r.body = reply->readAll();
            r.headers = reply->rawHeaderPairs();
            results.append(r);
            reply->deleteLater();
        }
        return results;
    }

private slots:
    void init() { m_server = std::make_unique<TestServer>(); }
    void cleanup()
    {
        m_server.reset();
        m_manualClock.reset();
    }
};

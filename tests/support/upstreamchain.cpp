#include "upstreamchain.h"

#include "ledgercheck.h"

#include <QFile>
#include <QJsonDocument>
#include <QUrlQuery>

namespace {

QUrl withPath(QUrl base, const QString &path)
{
    const qsizetype query = path.indexOf(QLatin1Char('?'));
    base.setPath(query < 0 ? path : path.left(query));
    if (query >= 0)
        base.setQuery(path.mid(query + 1));
    return base;
}

} // namespace

UpstreamChain::UpstreamChain() : UpstreamChain(Options{})
{}

UpstreamChain::UpstreamChain(Options options) : m_options(std::move(options))
{}

UpstreamChain::~UpstreamChain()
{
    m_shop.kill();
    m_distributor.kill();
}

bool UpstreamChain::cli(const TestStore &store, const QStringList &arguments, QString *output, QString *error) const
{
    return ServerProcess::runCliOn(store, arguments, output, error);
}

bool UpstreamChain::createKey(const TestStore &store, const QStringList &options, QString *keyId, QString *secret,
                              QString *error) const
{
    return ServerProcess::createKey(store, options, keyId, secret, error);
}

bool UpstreamChain::start(QString *error)
{
    if (!m_distributorStore.isValid() || !m_shopStore.isValid()) {
        *error = QStringLiteral("cannot create the data directories");
        return false;
    }
    const QStringList test{QStringLiteral("--mode"), QStringLiteral("test")};
    const QStringList live{QStringLiteral("--mode"), QStringLiteral("live")};
    const QStringList pos{QStringLiteral("--scope"), QStringLiteral("pos")};
    const QStringList admin{QStringLiteral("--scope"), QStringLiteral("admin")};
    const QStringList kirana{QStringLiteral("--account"), distributorAccount()};
    QString keyId;
    QString secret;
    QString upstreamSecret;

    // The distributor: the shop's account with a test pos key (the shop's upstream key) and a test admin key.
    if (!createKey(m_distributorStore, test + pos + kirana, &m_upstreamKeyId, &upstreamSecret, error) ||
        !createKey(m_distributorStore, test + admin + kirana, &keyId, &secret, error))
        return false;
    m_distributorAdmin = HttpClient::basic(keyId, secret);
    if (!m_distributor.start(m_distributorStore,
                             {QStringLiteral("--settle-delay-ms"), QString::number(m_options.distributorSettleDelayMs),
                              QStringLiteral("--webhook-retry-scale"), QStringLiteral("0.01")},
                             error))
        return false;
    m_proxy = std::make_unique<FaultProxy>(QHostAddress::LocalHost, quint16(m_distributor.url().port()));
    if (!m_proxy->listen(error))
        return false;

    // The shop: live pos and admin keys, a test pos key, a live float, and the proxy as its upstream.
    if (!createKey(m_shopStore, live + pos, &keyId, &secret, error))
        return false;
    m_shopLive = HttpClient::basic(keyId, secret);
    if (!createKey(m_shopStore, live + admin, &keyId, &secret, error))
        return false;
    m_shopLiveAdmin = HttpClient::basic(keyId, secret);
    if (!createKey(m_shopStore, test + pos, &keyId, &secret, error))
        return false;
    m_shopTest = HttpClient::basic(keyId, secret);
    QString output;
    if (!cli(m_shopStore,
             QStringList{QStringLiteral("wallet"), QStringLiteral("topup"), QStringLiteral("--amount"),
                         m_options.shopLiveFloatRupees, QStringLiteral("--note"),
                         QStringLiteral("float at the distributor")} +
                 live,
             &output, error))
        return false;
    const QString secretFile = upstreamSecretFile();
    QFile file(secretFile);
    if (!file.open(QIODevice::WriteOnly) || file.write(upstreamSecret.toUtf8() + '\n') < 0) {
        *error = QStringLiteral("cannot write ") + secretFile;
        return false;
    }
    file.close();
    if (!cli(m_shopStore,
             {QStringLiteral("upstream"), QStringLiteral("set"), QStringLiteral("--url"), upstreamUrl().toString(),
              QStringLiteral("--key-id"), m_upstreamKeyId, QStringLiteral("--key-secret-file"), secretFile,
              QStringLiteral("--webhook-password"), webhookPassword()},
             &output, error))
        return false;
    return startShop(error);
}

bool UpstreamChain::startShop(QString *error)
{
    if (!m_shop.start(m_shopStore,
                      QStringList{QStringLiteral("--upstream-timeout-ms"), QString::number(m_options.upstreamTimeoutMs),
                                  QStringLiteral("--upstream-retry-scale"), m_options.upstreamRetryScale,
                                  QStringLiteral("--webhook-retry-scale"), QStringLiteral("0.01")} +
                          m_options.shopArguments,
                      error))
        return false;
    // Through the distributor's API (its own connection writes), so that the chain's set-up never depends on a
    // running server noticing another process's commit; tst_upstreamprocesses::cliChangesWhileBothRun covers that path.
    QUrl hook = m_shop.url();
    hook.setPath(QStringLiteral("/hooks/upstream"));
    const HttpResult result =
        m_http.send("PUT", distributorUrl(QStringLiteral("/api/v1/webhook-endpoint")),
                    QJsonDocument(QJsonObject{{QStringLiteral("url"), hook.toString()},
                                              {QStringLiteral("webhook_password"), webhookPassword()}})
                        .toJson(QJsonDocument::Compact),
                    {{"Authorization", m_distributorAdmin}, {"Content-Type", "application/json"}});
    if (result.status == 200 || result.status == 201)
        return true;
    *error = QStringLiteral("PUT webhook-endpoint at the distributor: %1 %2")
                 .arg(QString::number(result.status), QString::fromUtf8(result.body));
    return false;
}

bool UpstreamChain::runCli(Side side, const QStringList &arguments, QString *error) const
{
    QString output;
    return cli(side == Side::Shop ? m_shopStore : m_distributorStore, arguments, &output, error);
}

QUrl UpstreamChain::upstreamUrl() const
{
    return withPath(m_proxy->url(), QStringLiteral("/api/v1"));
}

void UpstreamChain::killShop()
{
    m_shop.kill();
}

QUrl UpstreamChain::shopUrl(const QString &path) const
{
    return withPath(m_shop.url(), path);
}

QUrl UpstreamChain::distributorUrl(const QString &path) const
{
    return withPath(m_distributor.url(), path);
}

HttpResult UpstreamChain::sell(const QString &path, const QJsonObject &body, const QByteArray &key)
{
    return m_http.postJson(shopUrl(path), body, key.isEmpty() ? m_shopLive : key);
}

QJsonObject UpstreamChain::shopSale(qint64 transactionId)
{
    return m_http.get(shopUrl(QStringLiteral("/api/v1/transactions/%1").arg(transactionId)), m_shopLive).data();
}

QJsonArray UpstreamChain::distributorSales(const QString &referenceId)
{
    QUrl url = distributorUrl(QStringLiteral("/api/v1/transactions"));
    url.setQuery(QUrlQuery{{QStringLiteral("reference_id"), referenceId}});
    return m_http.get(url, m_distributorAdmin).data().value(QStringLiteral("items")).toArray();
}

QString UpstreamChain::upstreamReference(qint64 shopTransactionId)
{
    return shopSale(shopTransactionId)
        .value(QStringLiteral("upstream"))
        .toObject()
        .value(QStringLiteral("reference_id"))
        .toString();
}

QString UpstreamChain::ledgerProblems() const
{
    QStringList problems{::ledgerProblems(m_shopStore, QStringLiteral("shop")),
                         ::ledgerProblems(m_distributorStore, QStringLiteral("distributor"))};
    problems.removeAll(QString());
    return problems.join(QLatin1Char('\n'));
}

QList<QJsonObject> UpstreamChain::shopWebhookPayloads(qint64 shopTransactionId) const
{
    const ReadOnlyConnection db(m_shopStore);
    QString error;
    const QStringList payloads =
        db.column(QStringLiteral("SELECT payload FROM webhook_events WHERE mode = 'live' AND transaction_id = %1"
                                 " ORDER BY id")
                      .arg(shopTransactionId),
                  &error);
    QList<QJsonObject> objects;
    for (const QString &payload : payloads)
        objects.append(QJsonDocument::fromJson(payload.toUtf8()).object());
    return objects;
}

qint64 UpstreamChain::shopScalar(const QString &sql) const
{
    const ReadOnlyConnection db(m_shopStore);
    QString error;
    const QStringList rows = db.column(sql, &error);
    return error.isEmpty() && !rows.isEmpty() ? rows.constFirst().toLongLong() : -999;
}

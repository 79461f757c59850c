#include "liveshop.h"

#include "ledgercheck.h"
#include "specaggregator.h"

#include <QFile>

bool LiveShop::prepare(const QString &floatRupees, QString *error)
{
    if (!m_store.isValid()) {
        *error = QStringLiteral("no test store");
        return false;
    }
    m_livePos = createLiveKey(QStringLiteral("pos"), error);
    m_liveAdmin = m_livePos.isEmpty() ? QByteArray() : createLiveKey(QStringLiteral("admin"), error);
    if (m_liveAdmin.isEmpty())
        return false;
    QString output;
    return ServerProcess::runCliOn(m_store,
                                   {QStringLiteral("wallet"), QStringLiteral("topup"), QStringLiteral("--amount"),
                                    floatRupees, QStringLiteral("--note"), QStringLiteral("float at the aggregators"),
                                    QStringLiteral("--mode"), QStringLiteral("live")},
                                   &output, error);
}

QByteArray LiveShop::createLiveKey(const QString &scope, QString *error)
{
    QString keyId;
    QString secret;
    if (!ServerProcess::createKey(m_store,
                                  {QStringLiteral("--mode"), QStringLiteral("live"), QStringLiteral("--scope"), scope},
                                  &keyId, &secret, error))
        return {};
    return HttpClient::basic(keyId, secret);
}

bool LiveShop::setUpstream(const SpecAggregator &aggregator, const QString &credential, const QString &webhookPassword,
                           const QStringList &more, QString *error)
{
    const QString path = m_store.filePath(QStringLiteral("credential-") + QString::number(aggregator.url().port()));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(credential.toUtf8() + '\n') < 0) {
        *error = QStringLiteral("cannot write ") + path;
        return false;
    }
    file.close();
    QString output;
    return ServerProcess::runCliOn(m_store,
                                   QStringList{QStringLiteral("upstream"), QStringLiteral("set"),
                                               QStringLiteral("--url"), aggregator.baseUrl().toString(),
                                               QStringLiteral("--credential-file"), path,
                                               QStringLiteral("--webhook-password"), webhookPassword} +
                                       more,
                                   &output, error);
}

bool LiveShop::start(QString *error)
{
    return m_shop.start(m_store,
                        {QStringLiteral("--upstream-timeout-ms"), QStringLiteral("1500"),
                         QStringLiteral("--upstream-retry-scale"), QStringLiteral("0.01"),
                         QStringLiteral("--upstream-attention-after-s"), QStringLiteral("2"),
                         QStringLiteral("--webhook-retry-scale"), QStringLiteral("0.01")},
                        error);
}

QUrl LiveShop::url(const QString &path, const QUrlQuery &query) const
{
    QUrl url = m_shop.url();
    url.setPath(path);
    url.setQuery(query);
    return url;
}

qint64 LiveShop::sell(const QString &path, const QJsonObject &body, QJsonObject *answer)
{
    const HttpResult result = m_http.postJson(url(path), body, m_livePos);
    if (answer)
        *answer = result.data();
    const qint64 id = result.data().value(QStringLiteral("transaction_id")).toInteger();
    if (result.status != 200 || id <= 0)
        qWarning("sale refused: %d %s\n%s", result.status, result.body.constData(), qPrintable(m_shop.readOutput()));
    return result.status == 200 ? id : 0;
}

QJsonObject LiveShop::sale(qint64 id)
{
    return m_http.get(url(QStringLiteral("/api/v1/transactions/%1").arg(id)), m_livePos).data();
}

int LiveShop::ledgerRows(qint64 id, const char *kind) const
{
    return int(m_store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = %1 AND "
                                             "kind = '%2'")
                                  .arg(id)
                                  .arg(QLatin1String(kind))));
}

QString LiveShop::ledgerProblems() const
{
    return ::ledgerProblems(m_store, QStringLiteral("shop"));
}

#pragma once

#include "httpclient.h"
#include "serverprocess.h"
#include "teststore.h"

#include <QJsonObject>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

class SpecAggregator;

/// A real shop (`rechargedesk serve` on its own TestStore) that sells live: a live pos and a live admin key, a funded
/// live wallet, and upstreams set with `rechargedesk upstream set` as a shop owner would (issue 26, "Tests"). The
/// process tests against stand-in aggregators (tests/support/specaggregator.h) share it.
class LiveShop
{
public:
    /// Makes the keys and funds the live wallet with `floatRupees`. False with *error on failure.
    bool prepare(const QString &floatRupees, QString *error);
    /// `rechargedesk upstream set --url <aggregator>/api/v1 --credential-file F --webhook-password P` plus `more`
    /// (e.g. --name, --priority, --operators) on the shop's store. False with *error (the command's output).
    bool setUpstream(const SpecAggregator &aggregator, const QString &credential, const QString &webhookPassword,
                     const QStringList &more, QString *error);
    /// Starts `serve` with the test timings (upstream timeout 1500 ms, retry scale 0.01, attention after 2 s).
    bool start(QString *error);

    /// http://127.0.0.1:<port> + path (and query).
    QUrl url(const QString &path, const QUrlQuery &query = {}) const;
    /// POST path with `body` and the live pos key; the shop's transaction_id (0, with a warning, when refused).
    qint64 sell(const QString &path, const QJsonObject &body, QJsonObject *answer = nullptr);
    /// The shop's record of a sale (GET /api/v1/transactions/{id}, live pos key).
    QJsonObject sale(qint64 id);
    /// Wallet-ledger rows of one sale of that kind ("debit", "refund").
    int ledgerRows(qint64 id, const char *kind) const;
    /// Empty when the shop's live wallet equals its ledger and every sale is refunded only when FAILED, once.
    QString ledgerProblems() const;

    const QByteArray &livePos() const { return m_livePos; }
    const QByteArray &liveAdmin() const { return m_liveAdmin; }
    HttpClient &http() { return m_http; }
    const TestStore &store() const { return m_store; }
    ServerProcess &process() { return m_shop; }

private:
    QByteArray createLiveKey(const QString &scope, QString *error);

    TestStore m_store;
    ServerProcess m_shop;
    HttpClient m_http;
    QByteArray m_livePos;
    QByteArray m_liveAdmin;
};

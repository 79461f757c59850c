#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/statementrun.h"
#include "entities/transactionrecord.h"
#include "entities/upstreaminfo.h"

#include <QMap>

/// Typed calls of the upstream settings and a live sale's upstream side (issue 11,
/// upstream-contract.md); owns their routes.
class UpstreamApi
{
public:
    explicit UpstreamApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/upstream.
    TypedCall<UpstreamInfo> get() const;
    /// PUT /api/v1/upstream (live admin) with base_url, key_id, key_secret and the optional
    /// webhook_password / webhook_secret; answers the new state.
    TypedCall<UpstreamInfo> save(const QJsonObject &settings) const;
    /// DELETE /api/v1/upstream (live admin): live sales are refused until one is set again.
    TypedCall<UpstreamInfo> clear() const;
    /// POST /api/v1/upstream/check (admin): one probe of the configured upstream.
    TypedCall<UpstreamCheck> check() const;
    /// GET /api/v1/transactions/{id}/upstream-calls (admin).
    TypedCall<UpstreamCallList> calls(qint64 transactionId) const;
    /// POST /api/v1/transactions/{id}/upstream-recheck: asks the upstream now; answers the record.
    TypedCall<TransactionRecord> recheck(qint64 transactionId) const;
    /// POST /api/v1/transactions/{id}/resolve (live admin) with {"status": "SUCCESS"|"FAILED", "note"}: a person
    /// ends a PENDING live sale (FAILED refunds once); answers the settled record. 409 `not_pending` otherwise.
    /// `redeemCode`: a voucher ended as SUCCESS needs the code the aggregator shows (400 `redeem_code` otherwise).
    TypedCall<TransactionRecord> resolve(qint64 transactionId, const QString &status, const QString &note,
                                         const QString &redeemCode = {}) const;

    /// POST /api/v1/upstreams/{name}/statements (live admin; issue 26, "By the upstream's statement"): reconciles the
    /// upstream's CSV statement `csv` (the file's text, up to 8 MiB) named `fileName`; `columns` maps fields
    /// (reference_id, status, transaction_id, amount, date, redeem_code) to header names the server does not know.
    /// Answers the stored run with its counts and the lines for a person. 400 naming the problem (no header, no
    /// reference or status column, a row with more or fewer fields than the header, over 100,000 rows), 404
    /// `unknown_upstream`, 413 over the limit.
    TypedCall<StatementRun> importStatement(const QString &name, const QString &fileName, const QString &csv,
                                            const QMap<QString, QString> &columns = {}) const;
    /// GET /api/v1/upstreams/{name}/statements (admin): the upstream's statement runs, newest first (at most 200),
    /// without their lines.
    TypedCall<Collection<StatementRun>> statementRuns(const QString &name) const;
    /// GET /api/v1/upstreams/{name}/statements/{id} (admin): one run with its lines for a person (404 when that
    /// upstream has no such run).
    TypedCall<StatementRun> statementRun(const QString &name, qint64 id) const;

    /// GET /api/v1/upstreams (admin; issue 26, "Several upstreams"): every upstream of the server in the order live
    /// sales try them (by priority, lowest first), each as GET /api/v1/upstream answers one (never a secret).
    TypedCall<UpstreamList> list() const;
    /// PUT /api/v1/upstreams/{name} (live admin): sets the upstream `name` (`^[a-z0-9_-]{1,32}$`, percent-encoded
    /// here) with the body of save() plus `priority` (0–1000), `services`, `operators` (empty: all) and `enabled`.
    /// Answers it once what it offers was read (its `kind`). 400 naming the field (`name`, `base_url`, `credential`,
    /// `priority`, `services`, `operators`, …).
    TypedCall<UpstreamInfo> save(const QString &name, const QJsonObject &body) const;
    /// DELETE /api/v1/upstreams/{name} (live admin): its live sales go to the others (or are refused when none is
    /// left); sales already waiting on it keep being followed. 404 `upstream_not_found` when there is none.
    TypedCall<UpstreamInfo> remove(const QString &name) const;
    /// POST /api/v1/upstreams/{name}/check (live admin): one probe of that upstream (a plans lookup, then what it
    /// offers read again); the answer's message says what happened in words. 409 `upstream_not_configured`.
    TypedCall<UpstreamCheck> check(const QString &name) const;

private:
    ApiClient &m_api;
};

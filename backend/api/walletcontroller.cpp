#include "walletcontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/page.h"
#include "entities/walletbalance.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"
#include "services/walletservice.h"
#include "users/auditlog.h"

namespace {

QJsonObject walletJson(const WalletSummary &summary)
{
    return WalletBalance{ModeNames::mode(summary.mode), summary.balance}.toJson();
}

/// Issue 30: what the distributor answers a shop's key beside the spec's fields: its credit limit and what a sale may
/// still take (balance + credit limit).
QJsonObject shopWalletJson(const WalletSummary &summary)
{
    QJsonObject json = walletJson(summary);
    json.insert(QStringLiteral("credit_limit"), Money::format(summary.creditLimit));
    json.insert(QStringLiteral("available"), Money::format(summary.balance + summary.creditLimit));
    return json;
}

} // namespace

void WalletController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/wallet"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const WalletSummary summary = m_wallets.summary(request.caller.accountId, request.caller.mode);
                   reply.sendData(request.caller.shop ? shopWalletJson(summary) : walletJson(summary));
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/wallet/ledger"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const int limit = QueryParameters::limit(request.query, 50, 500);
                   const qint64 cursor = QueryParameters::numberCursor(request.query);
                   const QList<LedgerEntry> rows =
                       m_wallets.ledger(request.caller.accountId, request.caller.mode, limit, cursor);
                   const Page<LedgerEntry> page{
                       rows, rows.size() == limit ? QString::number(rows.last().id) : QString(), true};
                   reply.sendData(page.toJson());
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/wallet/topups"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   if (request.caller.shop && request.caller.mode == Mode::Live)
                       throw ApiError::forbidden(QStringLiteral("shop_cannot_credit_itself"),
                                                 QStringLiteral("a shop's live wallet is topped up by its distributor: "
                                                                "ask for funds (POST /api/v1/fund-requests)"));
                   const QString actor = request.caller.actor();
                   const JsonFields fields(request.jsonBody());
                   const qint64 rupees = fields.requiredInteger(QStringLiteral("amount"));
                   if (rupees > WalletService::kMaxTopup / Money::kPaisePerRupee)
                       throw ApiError::badRequest(
                           QStringLiteral("amount"), QStringLiteral("amount_out_of_range"),
                           QStringLiteral("a top-up must be at most %1").arg(Money::format(WalletService::kMaxTopup)));
                   const QString note = fields.optionalString(QStringLiteral("note")).value_or(QString());
                   m_wallets.topup(request.caller.accountId, request.caller.mode, rupees * Money::kPaisePerRupee, note,
                                   actor);
                   m_audit.record(request.caller.accountId, actor, QStringLiteral("wallet.topup"),
                                  QStringLiteral("%1 wallet +%2: %3")
                                      .arg(ModeNames::mode(request.caller.mode),
                                           Money::format(rupees * Money::kPaisePerRupee), note));
                   reply.sendData(walletJson(m_wallets.summary(request.caller.accountId, request.caller.mode)), 201);
               });
}

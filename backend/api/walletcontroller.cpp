#include "walletcontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/page.h"
#include "entities/walletbalance.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "services/walletservice.h"
#include "users/auditlog.h"

namespace {

QJsonObject walletJson(const WalletSummary &summary)
{
    return WalletBalance{ModeNames::mode(summary.mode), summary.balance}.toJson();
}

} // namespace

void WalletController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/wallet"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(walletJson(m_wallets.summary(request.caller.accountId, request.caller.mode)));
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/wallet/ledger"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString limitText = request.query.queryItemValue(QStringLiteral("limit"));
                   const QString cursorText = request.query.queryItemValue(QStringLiteral("cursor"));
                   const std::optional<qint64> limit = limitText.isEmpty() ? 50 : JsonFields::coerceInteger(limitText);
                   const std::optional<qint64> cursor =
                       cursorText.isEmpty() ? 0 : JsonFields::coerceInteger(cursorText);
                   if (!limit || *limit < 1 || *limit > 500)
                       throw ApiError::badRequest(QStringLiteral("limit"), QStringLiteral("invalid_query_parameter"),
                                                  QStringLiteral("limit must be a whole number from 1 to 500"));
                   if (!cursor)
                       throw ApiError::badRequest(QStringLiteral("cursor"), QStringLiteral("invalid_query_parameter"),
                                                  QStringLiteral("cursor is not one this server returned"));
                   const QList<LedgerEntry> rows =
                       m_wallets.ledger(request.caller.accountId, request.caller.mode, int(*limit), *cursor);
                   const Page<LedgerEntry> page{
                       rows, rows.size() == *limit ? QString::number(rows.last().id) : QString(), true};
                   reply.sendData(page.toJson());
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/wallet/topups"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
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

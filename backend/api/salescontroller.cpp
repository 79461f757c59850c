#include "salescontroller.h"

#include "http/apirouter.h"
#include "salerequest.h"
#include "services/transactionservice.h"

void SalesController::registerRoutes(ApiRouter &router)
{
    using Decoder = SaleRequest (*)(const QJsonObject &, const OperatorCatalog &);
    const auto route = [this, &router](const QString &path, Decoder decode) {
        router.add(QHttpServerRequest::Method::Post, path, Access::Pos,
                   [this, decode](const ApiRequest &request, const ApiReply &reply) {
                       const SaleRequest sale = decode(request.jsonBody(), m_catalog);
                       m_transactions.initiate(
                           request.caller, sale,
                           [reply](const TransactionRecord *record, std::exception_ptr error) {
                               if (!error)
                                   return reply.send(200, "application/json", record->dataEnvelope());
                               reply.sendException(error);
                               return false;
                           },
                           [reply] { return reply.isClientWaiting(); });
                   });
    };
    route(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"), &SaleRequest::decodeMobile);
    route(QStringLiteral("/api/v1/voucher/appstore/initiate-transaction"), &SaleRequest::decodeVoucher);
    route(QStringLiteral("/api/v1/recharge/dth/initiate-transaction"), &SaleRequest::decodeDth);
}

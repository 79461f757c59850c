#pragma once

class ApiRouter;
class OperatorCatalog;
class TransactionService;

/// Endpoints 5, 6 and 7 of api-v1.md: initiate a mobile recharge, a voucher purchase and a DTH
/// recharge. Bodies are decoded by the input rules of api-conventions.md; the answer is the
/// transaction record in the spec's `data` envelope, sent once the sale is durable. A sale made
/// by a signed-in person (X-Session-Token) records that person as its clerk.
class SalesController
{
public:
    SalesController(TransactionService &transactions, const OperatorCatalog &catalog)
        : m_transactions(transactions), m_catalog(catalog)
    {}
    void registerRoutes(ApiRouter &router);

private:
    TransactionService &m_transactions;
    const OperatorCatalog &m_catalog;
};

#pragma once

class ApiRouter;
class TransactionService;

/// Beyond the spec (api-conventions.md): GET /api/v1/transactions/{transaction_id} (status
/// check, the same record as initiate) and GET /api/v1/transactions (filters type, status,
/// operator, reference_id, from, to as IST "YYYY-MM-DD[ HH:MM:SS]", limit 1-200, cursor),
/// answering {"entity": "collection", "count", "items", "next_cursor"}.
class TransactionsController
{
public:
    explicit TransactionsController(TransactionService &transactions) : m_transactions(transactions) {}
    void registerRoutes(ApiRouter &router);

private:
    TransactionService &m_transactions;
};

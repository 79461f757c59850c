#pragma once

class ApiRouter;
class ComplaintService;

/// Complaints about sales (issue 29), beyond the spec (docs/api/openapi.yaml, tag Complaints):
/// POST /api/v1/transactions/{transaction_id}/complaints {reason, note} -> 201 complaint (any key of the account);
/// GET /api/v1/complaints?state=open|with_upstream|credited|rejected|unresolved&transaction_id=&limit=&cursor= -> a
/// paged collection, the unresolved first, each part newest first (any key); GET /api/v1/complaints/{id} (any key);
/// POST /api/v1/complaints/{id}/resolve {outcome credited|rejected, words, operator_reference} -> the complaint (admin
/// authority; live admin authority for a live sale's). The rules are ComplaintService's.
class ComplaintsController
{
public:
    explicit ComplaintsController(ComplaintService &complaints) : m_complaints(complaints) {}
    void registerRoutes(ApiRouter &router);

private:
    ComplaintService &m_complaints;
};

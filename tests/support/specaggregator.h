#pragma once

#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QThread>
#include <QUrl>

#include <memory>
#include <optional>

/// A stand-in for the aggregator a shop buys from (issue 26, "Tests"): it speaks ../shared/spec/api-v1.md as written
/// and nothing more, so a shop that works against it works against any service that keeps that document.
///
/// What it offers is exactly the spec's seven endpoints under /api/v1 (mobile, DTH and voucher initiate; prepaid
/// plans; the three Aadhaar steps), each answering `{"data": {...}}` with the spec's fields. What it does not offer is
/// as important: no `GET /api/v1/transactions/{id}` (no status check), no openapi.json, no balance, no de-duplication
/// of `reference_id` (every request is a new sale), no webhook signatures. It authenticates with an opaque dashboard
/// credential compared verbatim (`Authorization: Basic <credential>`), and its errors are in a format of its own, never
/// RechargeDesk's `{"error": {...}}`:
///
///     401 {"status":"error","message":"Invalid API key"}          a missing or wrong Authorization
///     404 {"status":"error","message":"Not found"}                any other path (the status check, openapi.json)
///     400 {"status":"FAILURE","message":"..."}                    a refusal, a bad field, a wrong captcha or OTP
///     503 an HTML page (text/html), as a load balancer in front of it sends
///
/// The outcome of a mobile or DTH sale follows the last four digits of its number (see Outcome), unless the test set
/// one for every sale (setOutcome()). A sale that ends after PENDING sends the spec's webhook to the configured URL.
///
/// It runs its QHttpServer on a thread of its own, so it keeps answering while the test's thread blocks (starting a
/// `rechargedesk serve`, running a CLI command that calls it); every public function may be called from any thread.
class SpecAggregator
{
public:
    /// What the aggregator does with one mobile, DTH or voucher request. By the number's last four digits (mobile and
    /// DTH): 0000 Failed, 1111 PendingThenSuccess, 2222 PendingThenFailed, 4000 Refused, 5030 Unavailable, 7777
    /// SoldButLate, 8888 SoldThenCut; any other number (and every voucher) Success.
    enum class Outcome
    {
        Success,            ///< sold: 200, transaction_status SUCCESS
        Failed,             ///< not sold: 200, transaction_status FAILED
        PendingThenSuccess, ///< 200 PENDING; SUCCESS after webhookDelayMs, then a webhook
        PendingThenFailed,  ///< 200 PENDING; FAILED after webhookDelayMs, then a webhook
        Refused,            ///< no sale: 400 {"status":"FAILURE","message":"Recharge not allowed for this number"}
        Unavailable,        ///< no sale: 503 with an HTML body
        SoldButLate,        ///< sold (SUCCESS recorded at once); the 200 is written lateAnswerMs later
        SoldThenCut,        ///< sold (SUCCESS recorded); the connection is closed without an answer
    };

    /// One webhook POST the aggregator made and how the receiver answered it.
    struct WebhookDelivery
    {
        QString referenceId;
        QJsonObject body;   ///< {"data": {"entity": "webhook", "webhook_event", "webhook_password", "payload"}}
        int httpStatus = 0; ///< 0 when no HTTP answer came (see error)
        QString error;      ///< the network error, or why nothing was sent
    };

    /// A stand-in accepting `Authorization: Basic <credential>` and nothing else; call listen() next.
    explicit SpecAggregator(QString credential);
    /// Stops the server and its thread; answers still held (SoldButLate) are never written.
    ~SpecAggregator();
    SpecAggregator(const SpecAggregator &) = delete;
    SpecAggregator &operator=(const SpecAggregator &) = delete;

    /// Listens on address:port (port 0: any free port). False with *error when it cannot.
    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0, QString *error = nullptr);
    /// http://<address>:<port> plus `path`.
    QUrl url(const QString &path = QString()) const;
    /// url("/api/v1"): the spec's {base_url}/api/v1, what a shop is configured with.
    QUrl baseUrl() const { return url(QStringLiteral("/api/v1")); }

    /// Where webhooks go (the account's "API configuration": the shop's /hooks/upstream) and the
    /// data.webhook_password they carry.
    void setWebhook(const QUrl &url, const QString &password);
    /// Every later sale ends as `outcome` whatever its number; std::nullopt goes back to the numbers' suffixes.
    void setOutcome(std::optional<Outcome> outcome);
    /// Milliseconds a SoldButLate answer is held (default 4000: longer than a shop's usual timeout in tests).
    void setLateAnswerMs(int ms);
    /// Milliseconds from a PENDING answer to the sale's end and its webhook (default 300).
    void setWebhookDelayMs(int ms);
    /// false: a PENDING sale still ends after webhookDelayMs but no webhook is sent (a "lost webhook"). Default true.
    void setAutomaticWebhooks(bool on);
    /// Endpoint 4 answers 500 {"status":"error","message":"Plans are not available for this circle"} for this
    /// operator and circle from now on (empty codes: for none), as an aggregator with one broken region does.
    void failPlans(const QString &operatorCode, const QString &circleCode);
    /// Sets the latest sale with this reference_id to `status` ("SUCCESS" or "FAILED"; a voucher gets its redeem code
    /// on SUCCESS) and sends its webhook now, whatever its state was (a late webhook, or a reversal of a SUCCESS).
    /// False when no sale has that reference_id.
    bool sendWebhook(const QString &referenceId, const QString &status);

    /// Sales made with this reference_id: records created (every outcome but Refused and Unavailable), so anything
    /// above 1 is a recharge sold twice.
    int salesFor(const QString &referenceId) const;
    /// Sales made in all.
    int totalSales() const;
    /// Initiate requests that named this reference_id, whatever the answer (401, 400, 503 and cut ones included).
    int requestsFor(const QString &referenceId) const;
    /// Requests, of any method and answer, whose path starts with `pathPrefix` (e.g. "/api/v1/transactions": a shop
    /// polling a status check the spec does not have).
    int requestsTo(const QString &pathPrefix) const;
    /// SoldButLate answers that could not be written because the client had closed the connection (timed out).
    int lateAnswersDropped() const;
    /// Every sale's record as it is now (the spec's transaction record), oldest first.
    QList<QJsonObject> records() const;
    /// The latest sale's record with this reference_id (empty when none).
    QJsonObject record(const QString &referenceId) const;
    /// Every webhook sent so far, oldest first (a delivery is listed once its answer came).
    QList<WebhookDelivery> webhooks() const;

    /// The digits the captcha of an Aadhaar transaction shows (what a person would read off the image).
    QString captchaAnswer(qint64 aadhaarTransactionId) const;
    /// The OTP every Aadhaar transaction accepts at verify-otp.
    static QString otp() { return QStringLiteral("123456"); }

private:
    struct State;
    class Server;

    std::unique_ptr<State> m_state;
    QThread m_thread;
    Server *m_server = nullptr; ///< lives on m_thread
};

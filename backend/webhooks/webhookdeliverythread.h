#pragma once

#include <QMutex>
#include <QSslCertificate>
#include <QThread>
#include <QUrl>

#include <functional>

class AadhaarVault;
class Clock;
class Database;
class WebhookDispatcher;

/// How the delivery thread's dispatcher works (ServerOptions, serve --webhook-retry-scale / --lease-seconds).
struct WebhookDeliverySettings
{
    double retryScale = 1.0; ///< multiplies the retry schedule
    qint64 leaseMs = 30'000; ///< lease of a claim, milliseconds (WebhookDispatcher::kDefaultLeaseMs)
};

/// Runs the WebhookDispatcher on a thread of its own with a database connection of its own
/// (issue 17): claiming due outbox rows in bounded batches, the HTTP deliveries and the writing of
/// their outcomes no longer share the server thread with the API. The dispatcher, its
/// WebhookEndpointService and its Database live and die on that thread; the server thread only
/// wakes it. Exactly-once records, the retry schedule and restart resumption are the dispatcher's
/// (leases in the database). Deliveries to the built-in inbox are checked and stored on this
/// thread's connection by a WebhookInboxVerifier of its own, without an HTTP round trip.
class WebhookDeliveryThread final : public QThread
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookDeliveryThread)

public:
    /// How long the thread waits before it tries again to open its connection, in milliseconds.
    static constexpr int kReopenDelayMs = 1000;

    /// `serverDb` names the database (its location() is opened again, on the thread). `serverUrl`
    /// gives "http://host:port" of the listening server (invalid before it listens); it is read
    /// on the calling thread only, at start() and at every wake(). `vault` seals the endpoints'
    /// secrets (null: none); `clock` and `vault` must be safe to read from the delivery thread.
    WebhookDeliveryThread(const Database &serverDb, const Clock &clock, const AadhaarVault *vault,
                          WebhookDeliverySettings settings, std::function<QUrl()> serverUrl);
    /// Stops the thread (stopDelivery()).
    ~WebhookDeliveryThread() override;

    /// See WebhookDispatcher::setOwnCertificate; before start().
    void setOwnCertificate(const QSslCertificate &certificate) { m_ownCertificate = certificate; }
    /// Starts the thread, which opens its connection and starts delivering what is due; nothing after
    /// stopDelivery().
    void startDelivery();
    /// The dispatcher looks at the outbox soon (new events are due now). Any thread.
    void wake();
    /// True once the thread has opened (and so migrated) its connection and delivers, until it stops. Any thread.
    bool isDelivering() const;
    /// Ends the deliveries in flight (their events go out again after a restart, same webhook-id)
    /// and the thread, and closes its connection; waits for it. Idempotent.
    void stopDelivery();

protected:
    void run() override;

private:
    /// This server's /hooks/inbox URL as last seen on the server thread (invalid until it listens).
    QUrl inboxUrl() const;
    void refreshInboxUrl();

    const Database &m_serverDb;
    const Clock &m_clock;
    const AadhaarVault *m_vault;
    WebhookDeliverySettings m_settings;
    std::function<QUrl()> m_serverUrl;
    QSslCertificate m_ownCertificate;
    bool m_stopped = false; ///< stopDelivery() was called (on the owning thread)
    mutable QMutex m_mutex;
    QUrl m_inboxUrl;                           ///< guarded by m_mutex
    WebhookDispatcher *m_dispatcher = nullptr; ///< guarded by m_mutex; set while run() delivers
};

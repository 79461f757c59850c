#pragma once

#include <QString>

/// One text message to a resident's mobile phone (architecture.md, "Seams for testing").
struct SmsMessage
{
    qint64 accountId = 0;     ///< the account whose request caused the message
    qint64 transactionId = 0; ///< the Aadhaar authentication transaction it belongs to (0 for none)
    QString mobile;           ///< full 10-digit recipient number; a gateway must not store it in clear
    QString text;             ///< the message body as the resident reads it (carries the OTP)
    qint64 createdAtMs = 0;   ///< when it was handed to the gateway, UTC milliseconds since the epoch
};

/// Delivers SMS messages, e.g. the Aadhaar OTP (api-conventions.md, "Aadhaar OTP flow"). send() is called inside the
/// database transaction of the step that issues the message, so a gateway that writes to the same database commits
/// or rolls back with it; a network gateway should queue (outbox) rather than send from here.
class SmsGateway
{
public:
    virtual ~SmsGateway() = default;
    /// Hands @p message over for delivery. Throws (DatabaseError or ApiError) when it cannot be accepted, which
    /// rolls the calling step back.
    virtual void send(const SmsMessage &message) = 0;
};

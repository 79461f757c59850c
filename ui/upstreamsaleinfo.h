#pragma once

#include "entities/transactionrecord.h"

#include <QCoreApplication>
#include <QString>

/// The "upstream" extension of a live sale's transaction record (issue 11, the upstream
/// contract): how far the sale got with the upstream provider — queued, sent, unknown, pending,
/// settled or refused — its reference there, the attempts made and the upstream's error of a
/// refusal. Test-mode and sandbox records carry none (present() is false).
struct UpstreamSaleInfo
{
    Q_DECLARE_TR_FUNCTIONS(UpstreamSaleInfo)

public:
    bool present = false;
    QString state;
    QString referenceId;
    qint64 upstreamTransactionId = 0; ///< 0 until the upstream has answered with its id
    qint64 attempts = 0;
    QString errorCode;
    QString errorDescription;

    /// The record's upstream part; present is false when the record has none.
    static UpstreamSaleInfo fromRecord(const TransactionRecord &record);

    /// True while the sale waits on the upstream (queued, sent, unknown or pending).
    bool isWaiting() const;
    /// True while nothing definite came back (queued, sent or unknown): the sales the history
    /// filter "Unknown at upstream" and the day-end count show.
    bool isUnknown() const { return isUnknownState(state); }
    /// Same for a state name.
    static bool isUnknownState(const QString &state);
    /// True when the upstream refused the sale, or it failed with the upstream's error.
    bool hasError() const { return !errorCode.isEmpty() || !errorDescription.isEmpty(); }

    /// The state in words ("Waiting for the operator's answer", "Refused by the upstream", …).
    QString stateText() const;
    /// The upstream's error in plain words: known reasons mapped (a short distributor wallet, a
    /// refused key, a reused reference, refused details), else "The upstream said: <description>".
    QString errorText() const;
    /// For a sale the upstream refused (FAILED, refunded): the same mapped words, else the
    /// description with "nothing was charged to the customer".
    QString refusalText() const;

private:
    QString knownErrorText() const;
};

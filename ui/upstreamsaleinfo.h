#pragma once

#include "entities/transactionrecord.h"

#include <QCoreApplication>
#include <QDate>
#include <QList>
#include <QString>

/// The "upstream" extension of a live sale's transaction record (issue 11, the upstream
/// contract): how far the sale got with the upstream provider — queued, sent, unknown, pending,
/// settled or refused — its reference there, the attempts made and the upstream's error of a
/// refusal; since issue 26 also whether it needs attention (not ended within the server's
/// attention_after_s), whether it was sent once only (the upstream promised no idempotent
/// reference) and who resolved it by hand; and whether the upstream reversed it (FAILED after SUCCESS, refunded
/// once), reported a status that differs from ours (a mismatch for a person) and which upstreams refused it before the
/// one it went to, with their words. Test-mode and sandbox records carry none (present() is false).
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
    bool attention = false; ///< PENDING longer than the server's attention_after_s
    bool sendOnce = false;  ///< sent once, ever: never re-sent, never polled (a spec-only upstream)
    bool resolved = false;  ///< a person ended the sale by hand (resolvedBy, resolutionNote, resolvedAtMs)
    QString resolvedBy;
    QString resolutionNote;
    qint64 resolvedAtMs = 0;  ///< UTC ms
    QString upstream;         ///< the name of the upstream the sale went (or last went) to
    bool reversed = false;    ///< the upstream reported FAILED after SUCCESS: refunded once (reversalSource, …AtMs)
    QString reversalSource;   ///< "webhook" or "statement"
    qint64 reversedAtMs = 0;  ///< UTC ms
    bool mismatch = false;    ///< the upstream reported a final status that differs from ours: left for a person
    QString mismatchReported; ///< what the upstream reported, e.g. "SUCCESS"
    QString mismatchSource;   ///< "webhook" or "statement"
    qint64 mismatchAtMs = 0;  ///< UTC ms
    /// An upstream that definitely refused or failed the sale before it moved to the next one.
    struct Tried
    {
        QString upstream;
        QString outcome; ///< "refused" or "FAILED"
        QString words;   ///< its description, else its code
    };
    QList<Tried> tried; ///< oldest first

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
    /// description with "nothing was charged to the customer"; the upstream's own words follow
    /// the mapped ones.
    QString refusalText() const;
    /// What a known reason means in plain words (a short distributor wallet, a refused key, …); empty
    /// for a reason of no known meaning.
    QString meaningText() const { return knownErrorText(); }
    /// The upstream's own words about a refusal, quoted: "The upstream said: “…”" (its description,
    /// else its code); empty when it said nothing.
    QString wordsText() const;
    /// For a sale that needs attention, what is known in plain words, told apart for a sale sent
    /// once (no status check: end it by statement or by hand) and one RechargeDesk keeps asking
    /// about; empty when it needs none.
    QString attentionText() const;
    /// "Resolved by hand by NAME at HH:MM: note" (the IST time of day; the date too when it was not
    /// `today`, an IST date); empty unless a person resolved the sale.
    QString resolutionText(const QDate &today) const;
    /// "Reversed by the operator at HH:MM" (the IST time of day; the date too when it was not `today`, an IST date;
    /// an invalid `today` always gives the date); empty unless the upstream reversed the sale.
    QString reversalText(const QDate &today) const;
    /// For a reversed sale, what happened in a sentence for the detail pane: who reported it (the upstream's webhook or
    /// its statement) and that `paid` went back to the wallet once.
    QString reversalDetailText(const QString &paid) const;
    /// A warning for a person when the upstream reported another final status than `held` (the sale's status here):
    /// "The upstream reports SUCCESS for this sale, held FAILED here: check with the upstream; nothing was debited
    /// again." followed by where and when it said so; empty without a mismatch.
    QString mismatchText(const QString &held, const QDate &today) const;
    /// The upstreams that refused the sale before, one line each with their words ("payfast refused it: “…”");
    /// empty when the first upstream ended it.
    QString triedText() const;

private:
    QString knownErrorText() const;
    /// "14:05" when `atMs` falls on `today` (IST), else "22 Nov 2026, 09:10".
    static QString whenText(qint64 atMs, const QDate &today);
};

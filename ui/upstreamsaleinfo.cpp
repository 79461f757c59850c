#include "upstreamsaleinfo.h"

#include "clock.h"

#include <algorithm>

UpstreamSaleInfo UpstreamSaleInfo::fromRecord(const TransactionRecord &record)
{
    UpstreamSaleInfo sale;
    const std::optional<SaleUpstream> upstream = record.upstreamSale();
    if (!upstream)
        return sale;
    sale.present = true;
    sale.state = upstream->state;
    sale.referenceId = upstream->referenceId;
    sale.upstreamTransactionId = upstream->transactionId.value_or(0);
    sale.attempts = upstream->attempts;
    if (upstream->error) {
        sale.errorCode = upstream->error->code;
        sale.errorDescription = upstream->error->description;
    }
    sale.attention = upstream->attention;
    sale.sendOnce = upstream->sendOnce;
    if (upstream->resolution) {
        sale.resolved = true;
        sale.resolvedBy = upstream->resolution->by;
        sale.resolutionNote = upstream->resolution->note;
        sale.resolvedAtMs = upstream->resolution->atMs;
    }
    sale.upstream = upstream->upstream;
    if (upstream->reversal) {
        sale.reversed = true;
        sale.reversalSource = upstream->reversal->source;
        sale.reversedAtMs = upstream->reversal->atMs;
    }
    if (upstream->mismatch) {
        sale.mismatch = true;
        sale.mismatchReported = upstream->mismatch->reported;
        sale.mismatchSource = upstream->mismatch->source;
        sale.mismatchAtMs = upstream->mismatch->atMs;
    }
    for (const SaleUpstream::Attempt &attempt : upstream->tried)
        sale.tried.append({attempt.upstream, attempt.outcome,
                           attempt.error.description.isEmpty() ? attempt.error.code : attempt.error.description});
    return sale;
}

bool UpstreamSaleInfo::isUnknownState(const QString &state)
{
    return state == QLatin1String("queued") || state == QLatin1String("sent") || state == QLatin1String("unknown");
}

bool UpstreamSaleInfo::isWaiting() const
{
    return isUnknown() || state == QLatin1String("pending");
}

QString UpstreamSaleInfo::stateText() const
{
    if (reversed)
        return tr("Reversed by the operator after SUCCESS (refunded once)");
    if (resolved)
        return tr("Resolved by hand");
    if (state == QLatin1String("queued"))
        return tr("Queued: not yet sent to the upstream");
    if (state == QLatin1String("sent"))
        return tr("Sent: waiting for the upstream's first answer");
    if (state == QLatin1String("unknown")) {
        return sendOnce ? tr("Unknown: sent once and no answer came; it is never sent again")
                        : tr("Unknown: no definite answer yet; being sent again with the same reference");
    }
    if (state == QLatin1String("pending")) {
        return sendOnce ? tr("Pending at the upstream: waiting for its webhook (it offers no status check)")
                        : tr("Pending at the upstream: waiting for the operator's answer");
    }
    if (state == QLatin1String("settled"))
        return tr("Settled by the upstream");
    if (state == QLatin1String("refused"))
        return tr("Refused by the upstream (refunded)");
    return state;
}

QString UpstreamSaleInfo::knownErrorText() const
{
    // The server keeps the upstream's reason (snake_case), else its code, else http_<status>.
    const QString code = errorCode.toLower();
    const auto among = [&code](std::initializer_list<const char *> names) {
        return std::any_of(names.begin(), names.end(),
                           [&code](const char *name) { return code == QLatin1String(name); });
    };
    if (among({"insufficient_balance", "http_402"}))
        return tr("The distributor's wallet is short — nothing was charged to the customer. Ask the distributor to "
                  "top up, then sell again.");
    if (among({"invalid_credentials", "missing_credentials", "malformed_credentials", "key_revoked",
               "authentication_error", "permission_error", "http_401", "http_403"}))
        return tr("The upstream did not accept this shop's key — nothing was charged to the customer. An admin "
                  "should check Back office → Settings → Upstreams.");
    if (among({"reference_id_reused", "conflict_error", "http_409"}))
        return tr("The upstream already has a different sale under this reference — nothing was charged to the "
                  "customer. Sell again.");
    if (among({"bad_request_error", "http_400", "http_422"})) {
        return errorDescription.isEmpty()
                   ? tr("The upstream refused the sale's details — nothing was charged to the customer.")
                   : tr("The upstream refused the sale's details (%1) — nothing was charged to the customer.")
                         .arg(errorDescription);
    }
    return {};
}

QString UpstreamSaleInfo::errorText() const
{
    if (const QString known = knownErrorText(); !known.isEmpty())
        return known;
    if (!errorDescription.isEmpty())
        return tr("The upstream said: %1").arg(errorDescription);
    return errorCode.isEmpty() ? QString() : tr("The upstream said: %1").arg(errorCode);
}

QString UpstreamSaleInfo::wordsText() const
{
    const QString words = errorDescription.isEmpty() ? errorCode : errorDescription;
    return words.isEmpty() ? QString() : tr("The upstream said: “%1”").arg(words);
}

QString UpstreamSaleInfo::attentionText() const
{
    if (!attention)
        return {};
    const bool answered = state == QLatin1String("pending");
    if (sendOnce) {
        return answered ? tr("Sent once to the aggregator; it answered PENDING and its webhook never came. The "
                             "aggregator offers no status check: end it by its statement or by hand after checking "
                             "its dashboard.")
                        : tr("Sent once to the aggregator; its answer never came. The aggregator offers no status "
                             "check: end it by its statement or by hand after checking its dashboard.");
    }
    return answered ? tr("The upstream answered PENDING and has not ended the sale since. RechargeDesk keeps asking "
                         "it; if this lasts, check the upstream's dashboard and end the sale by hand.")
                    : tr("No definite answer from the upstream yet. RechargeDesk keeps sending the same reference, "
                         "which the upstream never sells twice; if this lasts, check the upstream's dashboard and "
                         "end the sale by hand.");
}

QString UpstreamSaleInfo::whenText(qint64 atMs, const QDate &today)
{
    const QDateTime at = IstTime::toIst(QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC));
    return at.date() == today ? IstTime::timeOfDay(at) : at.toString(QStringLiteral("dd MMM yyyy, HH:mm"));
}

QString UpstreamSaleInfo::resolutionText(const QDate &today) const
{
    if (!resolved)
        return {};
    return tr("Resolved by hand by %1 at %2: %3").arg(resolvedBy, whenText(resolvedAtMs, today), resolutionNote);
}

QString UpstreamSaleInfo::reversalText(const QDate &today) const
{
    if (!reversed)
        return {};
    return tr("Reversed by the operator at %1").arg(whenText(reversedAtMs, today));
}

QString UpstreamSaleInfo::reversalDetailText(const QString &paid) const
{
    if (!reversed)
        return {};
    return reversalSource == QLatin1String("statement")
               ? tr("The upstream's statement reports FAILED for this sale after it had reported SUCCESS: the sale is "
                    "FAILED now and %1 went back to the wallet once.")
                     .arg(paid)
               : tr("The upstream's webhook reported FAILED for this sale after it had reported SUCCESS: the sale is "
                    "FAILED now and %1 went back to the wallet once.")
                     .arg(paid);
}

QString UpstreamSaleInfo::mismatchText(const QString &held, const QDate &today) const
{
    if (!mismatch)
        return {};
    const QString warning = tr("The upstream reports %1 for this sale, held %2 here: check with the upstream; nothing "
                               "was debited again.")
                                .arg(mismatchReported, held);
    const QString when = whenText(mismatchAtMs, today);
    return warning + QLatin1Char(' ') +
           (mismatchSource == QLatin1String("statement") ? tr("Its statement said so (imported at %1).").arg(when)
                                                         : tr("Its webhook said so at %1.").arg(when));
}

QString UpstreamSaleInfo::triedText() const
{
    QStringList lines;
    for (const Tried &attempt : tried) {
        const QString name = attempt.upstream.isEmpty() ? tr("An upstream") : attempt.upstream;
        QString line =
            attempt.outcome == QLatin1String("FAILED") ? tr("%1 failed it").arg(name) : tr("%1 refused it").arg(name);
        if (!attempt.words.isEmpty())
            line = tr("%1: “%2”").arg(line, attempt.words);
        lines.append(line);
    }
    return lines.isEmpty() ? QString()
                           : tr("Tried before, then sent on to %1:").arg(upstream) + QLatin1Char('\n') +
                                 lines.join(QLatin1Char('\n'));
}

QString UpstreamSaleInfo::refusalText() const
{
    if (const QString known = knownErrorText(); !known.isEmpty()) {
        // The mapped meaning, then the upstream's own words unless the meaning already quotes them.
        const QString words = wordsText();
        return words.isEmpty() || known.contains(errorDescription) ? known : known + QLatin1Char(' ') + words;
    }
    const QString why = errorDescription.isEmpty() ? errorCode : errorDescription;
    return why.isEmpty() ? tr("The upstream refused the sale — nothing was charged to the customer.")
                         : tr("The upstream refused the sale (%1) — nothing was charged to the customer.").arg(why);
}

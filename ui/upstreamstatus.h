#pragma once

#include "entities/upstreaminfo.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QString>

/// What GET /api/v1/upstream says about the server's upstream provider (issue 11, the upstream
/// contract): whether one is configured, its URL and key id (never a secret), its state
/// (not_configured / unknown / online / unreachable) since when, the last contact and error, the
/// path the upstream sends webhooks to, how many of the caller's sales are still unknown there and
/// how many need attention (issue 26: not ended within attention_after_s).
struct UpstreamStatus
{
    Q_DECLARE_TR_FUNCTIONS(UpstreamStatus)

public:
    bool configured = false;
    QString baseUrl;
    QString keyId;
    QString state; ///< "not_configured", "unknown" (never contacted yet), "online", "unreachable"
    QDateTime since;
    QDateTime lastContact;
    QString lastError;
    QString webhookPath = QStringLiteral("/hooks/upstream");
    qint64 unknownSales = 0;
    qint64 attentionSales = 0;  ///< the caller's live sales not ended within attentionAfterS
    qint64 attentionAfterS = 0; ///< the server's --upstream-attention-after-s (0: not said)

    /// The status of an answer of GET/PUT/DELETE /api/v1/upstream (decoded strictly by UpstreamApi).
    static UpstreamStatus from(const UpstreamInfo &info);

    /// One line for the status bar: "Upstream online", "Upstream unreachable since 14:02",
    /// "Upstream not contacted yet"; empty when none is configured.
    QString statusBarText() const;
    /// For the status bar: "1 sale needs attention", "2 sales need attention"; empty for none.
    QString attentionText() const;
    /// What those sales are and where they are ended, for the status bar's tooltip.
    QString attentionToolTip() const;
    /// The state in a sentence for the settings card, with times in IST and the last error.
    QString description() const;

    /// "14:02" — the instant's IST wall-clock time.
    static QString istClock(const QDateTime &instant);
};

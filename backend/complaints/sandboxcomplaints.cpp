#include "sandboxcomplaints.h"

std::optional<SandboxComplaintDecision> SandboxComplaintDecision::of(const QString &reason, qint64 transactionId)
{
    if (reason == QLatin1String("not_received"))
        return SandboxComplaintDecision{QStringLiteral("credited"),
                                        QStringLiteral("Sandbox: the operator found no recharge on the number; the "
                                                       "sale is credited back"),
                                        QStringLiteral("SBX-%1").arg(transactionId)};
    if (reason == QLatin1String("wrong_number") || reason == QLatin1String("wrong_operator") ||
        reason == QLatin1String("wrong_amount"))
        return SandboxComplaintDecision{QStringLiteral("rejected"),
                                        QStringLiteral("Sandbox: the operator confirms the recharge reached the number "
                                                       "as it was sold"),
                                        QStringLiteral("SBX-%1").arg(transactionId)};
    return std::nullopt;
}

#include "auditentry.h"

#include "clock.h"
#include "entityfields.h"

QJsonObject AuditEntry::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("audit_entry")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("actor"), actor},
                       {QStringLiteral("action"), action},
                       {QStringLiteral("detail"), detail},
                       {QStringLiteral("datetime"), IstTime::formatMs(createdAtMs)}};
}

std::optional<AuditEntry> AuditEntry::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("audit entry"));
    EntityFields::expectEntity(in, u"audit_entry");
    AuditEntry entry;
    entry.id = in.integer(u"id");
    entry.actor = in.string(u"actor");
    entry.action = in.string(u"action");
    entry.detail = in.string(u"detail");
    entry.createdAtMs = in.dateTime(u"datetime").toMSecsSinceEpoch();
    if (!in.ok())
        return EntityFields::failed<AuditEntry>(in, error);
    return entry;
}

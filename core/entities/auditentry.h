#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

/// One admin action as the audit log keeps it (the `audit_entry` entity of GET /api/v1/audit-log,
/// api-conventions.md "Beyond the spec"; issue 6, item 6): who did what, when.
struct AuditEntry
{
    qint64 id = 0;
    QString actor;          ///< "user:<name>" (signed-in user), "key:<key_id>" (API key only), "setup", "system"
    QString action;         ///< stable dotted name, e.g. "user.create", "shop.update"
    QString detail;         ///< what changed, in words (never a PIN or secret)
    qint64 createdAtMs = 0; ///< UTC ms since the epoch; IST "YYYY-MM-DD HH:MM:SS" on the wire (`datetime`)

    /// {entity "audit_entry", id, actor, action, detail, datetime (IST)}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with `*error` (when given) naming a missing or mistyped field.
    static std::optional<AuditEntry> fromJson(const QJsonObject &json, QString *error);
};

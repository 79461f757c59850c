#pragma once

#include "money.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

/// A customer's complaint about one sale (issue 29, "Complaints"): "the recharge never arrived". Raised from a
/// SUCCESS or PENDING sale with a reason and a note; it is `open` with the shop's admin, `with_upstream` while the
/// RechargeDesk upstream that sold the sale handles it, and ends `credited` (the sale reversed: FAILED, refunded
/// once) or `rejected` (with the words of whoever resolved it and the operator's reference). At most one complaint
/// per sale is unresolved at a time. The `complaint` entity of /api/v1/complaints (our extension;
/// docs/api/openapi.yaml). Money in paise; times are instants written as IST "YYYY-MM-DD HH:MM:SS".
struct Complaint
{
    static constexpr int kMaxNote = 300;             ///< characters of `note` and of `resolution`
    static constexpr int kMaxOperatorReference = 64; ///< characters of `operator_reference`

    /// Where the complaint went beyond this server: the upstream that sold the sale.
    struct Upstream
    {
        QString name;           ///< the upstream's name among the server's upstreams
        qint64 complaintId = 0; ///< the upstream's own complaint id; 0 (null) until it took the complaint
        QString note;           ///< why it stays with the shop's admin (a spec-only upstream, its refusal); "" = null

        friend bool operator==(const Upstream &, const Upstream &) = default;
        /// {name, complaint_id|null, note|null}.
        QJsonObject toJson() const;
        static std::optional<Upstream> fromJson(const QJsonObject &json, QString *error);
    };

    qint64 id = 0;
    qint64 transactionId = 0;  ///< the sale complained about
    QString referenceId;       ///< the sale's reference_id ("" when it has none)
    QString number;            ///< the sale's phone or DTH number ("" for a voucher)
    QString operatorCode;      ///< the sale's operator code
    Paise amount = 0;          ///< the sale's bill amount
    QString saleStatus;        ///< the sale's transaction_status now: "SUCCESS", "PENDING" or "FAILED"
    QString mode;              ///< "test" / "live"
    QString reason;            ///< one of reasons()
    QString note;              ///< the clerk's words; required for reason "other"
    QString state;             ///< one of states()
    QString resolution;        ///< the resolver's words; "" (null) while unresolved
    QString operatorReference; ///< the operator's reference given with the resolution; "" (null) when none
    QString raisedBy;          ///< who raised it: a person's name, or "key:<key_id>" for an API client
    QDateTime raisedAt;
    QString resolvedBy;        ///< a person, "key:<id>", "sandbox" or "upstream:<name>"; "" (null) while unresolved
    QDateTime resolvedAt;      ///< invalid (null) while unresolved
    QDateTime deadlineAt;      ///< raisedAt + the shop's complaint_deadline_hours, fixed when raised
    qint64 ageSeconds = 0;     ///< from raisedAt until resolvedAt, or until now while unresolved
    bool pastDeadline = false; ///< resolved after, or still unresolved past, deadlineAt
    std::optional<Upstream> upstream; ///< null for a test sale's complaint and for a live sale without one

    /// The reasons on the wire: not_received, wrong_number, wrong_operator, wrong_amount, other.
    static const QStringList &reasons();
    /// The states on the wire: open, with_upstream, credited, rejected.
    static const QStringList &states();
    /// True for credited and rejected.
    static bool isResolvedState(const QString &state);
    bool isResolved() const { return isResolvedState(state); }

    /// The entity as the API writes it (nulls as documented above).
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field or an unknown reason
    /// or state.
    static std::optional<Complaint> fromJson(const QJsonObject &json, QString *error);
};

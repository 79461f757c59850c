#pragma once

#include "money.h"
#include "reportsections.h"

#include <QColor>
#include <QCoreApplication>
#include <QDate>
#include <QDateTime>
#include <QString>

#include <optional>

/// The words of shifts and tenders (issue 28) shared by the day-end report, the shift report, the Shifts page and
/// History, so each says the same thing the same way. Money with Indian grouping (Money::formatIndian), times IST.
class ShiftWording
{
    Q_DECLARE_TR_FUNCTIONS(ShiftWording)

public:
    /// A count's difference (counted − expected, paise): "₹0.00" when exact, "Short ₹200.00" when money is
    /// missing, "Over ₹50.00" when there is more; "—" when there is none (open, or hidden by a blind count).
    static QString differenceText(std::optional<Paise> difference);
    /// ReportTone::Short below zero, Over above, Plain for zero or none.
    static ReportTone differenceTone(std::optional<Paise> difference);
    /// The colour a screen or PDF gives a value of `tone`: red for short, amber for over; invalid for plain.
    static QColor toneColour(ReportTone tone);
    /// Money, or `none` (default "—") when there is none.
    static QString moneyText(std::optional<Paise> paise, const QString &none = QStringLiteral("—"));
    /// "Open" / "Closed" for the API's state.
    static QString stateText(const QString &state);
    /// "Cash", "UPI" or "Not recorded" for the API's tender ("cash", "upi", "").
    static QString tenderName(const QString &tender);
    /// "In" / "Out" for a cash move's direction.
    static QString directionText(const QString &direction);
    /// The IST time of `instant` for people: "14:05" on `day` (an IST date; invalid: always with the date), else
    /// "29 Nov 2026 01:10"; "" for an invalid instant.
    static QString timeText(const QDateTime &instant, const QDate &day = {});
};

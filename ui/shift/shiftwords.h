#pragma once

#include "entities/shift.h"

#include <QCoreApplication>
#include <QString>

/// The words of the counter's shift screens (issue 28): a shift's figures so far and the status bar's line (the
/// reports' words are ShiftWording's). Money as people read it (Money::formatIndian), times of day in IST.
class ShiftWords
{
    Q_DECLARE_TR_FUNCTIONS(ShiftWords)

public:
    /// "Opened 09:14 with ₹2,000.00 · cash sales ₹598.00 (2) · UPI ₹299.00 (1) · cash out ₹100.00", adding cash
    /// in, cash given back and sales without a tender when there are any.
    static QString soFar(const Shift &shift);
    /// The status bar's line: "Shift: Asha since 09:14 (Counter 1)".
    static QString statusLine(const Shift &shift);
};

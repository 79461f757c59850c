#pragma once

#include <QString>

/// How the customer pays the shop for a sale (issue 28): cash into the drawer, or UPI to the shop's UPI ID. The
/// API's initiate takes it as `tender` "cash" / "upi".
enum class Tender
{
    Cash,
    Upi
};

namespace Tenders {

/// "cash" / "upi", as the API's `tender` and the terminal's "counter/last_tender" spell it.
QString wireName(Tender tender);
/// The tender `text` names ("cash", "upi"); `fallback` for anything else (an unset preference, a record without).
Tender fromWireName(const QString &text, Tender fallback);

} // namespace Tenders

#pragma once

#include "money.h"

#include <QString>

/// The UPI deep link of NPCI's "UPI Linking Specifications" (version 1.6, "Link Specification and Parameters"):
/// the text a UPI QR code carries, so that any UPI app opens a payment to the shop's UPI ID for the exact amount
/// (issue 28). RechargeDesk sees no payment: the link only fills in the customer's app.
namespace UpiLink {

/// The longest transaction note (`tn`) build() puts in a link, in characters (UTF-16 code units).
inline constexpr int kMaxNoteLength = 80;

/// The payment link `upi://pay?pa=<vpa>&pn=<payeeName>&am=<amount>&cu=INR&tn=<note>`, parameters in that order.
/// Each value is UTF-8 and percent-encoded per RFC 3986 (section 2.1, upper-case hex): everything but the
/// unreserved characters A-Z a-z 0-9 - . _ ~ is encoded (a space is "%20", never "+"), except the '@' of `pa`,
/// which a query may hold as it is (RFC 3986 section 3.4) and every UPI app reads as `name@handle`.
/// `amount` is in paise and must be > 0; it is written in rupees with two decimals (29900 -> "299.00").
/// `note` longer than kMaxNoteLength is cut there (never inside a surrogate pair); an empty note leaves `tn` out.
/// Returns an empty string, so that no wrong QR can be drawn, when `vpa` is not Validators::isUpiVpa(), the payee
/// name is blank, or the amount is not positive.
QString build(const QString &vpa, const QString &payeeName, Paise amount, const QString &note);

/// The amount as the link's `am` carries it: rupees with exactly two decimals, no sign, no grouping, no "₹":
/// 29900 -> "299.00", 5 -> "0.05", 10000000 -> "100000.00". `amount` in paise, >= 0.
QString amountText(Paise amount);

/// The note of a sale's link, naming the number recharged and the sale's reference_id so the shop can find the
/// payment in its UPI app: "Recharge 9876543210 ref RD-20240501-0007". Without a number (a voucher) it is
/// "Sale ref RD-…"; when the whole would pass kMaxNoteLength it is "ref RD-…" (a reference_id is at most 64
/// characters, so the reference is never cut).
QString saleNote(const QString &number, const QString &reference);

} // namespace UpiLink

#pragma once

#include "money.h"

#include <QString>
#include <QStringList>

/// CSV text as the exports write it (RFC 4180: comma separated, CRLF line ends, a field with a comma, double quote,
/// CR or LF in double quotes with inner quotes doubled). Shared by the Back office's exports and the server's CSV
/// answers (a shop's statement), so both quote, guard and format money alike.
namespace CsvText {
/// One CSV line (with CRLF) of `fields`, quoted as RFC 4180 asks. Text that a spreadsheet would run as a formula
/// (starting with = + - @ and not a number) is prefixed with an apostrophe (CSV injection).
QString line(const QStringList &fields);
/// Quotes one field if it holds a comma, double quote, CR or LF.
QString quote(const QString &field);
/// Paise as plain rupees with two decimals and no grouping: 24900 -> "249.00", -5 -> "-0.05".
QString rupees(Paise amount);
} // namespace CsvText

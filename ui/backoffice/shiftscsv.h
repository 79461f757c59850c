#pragma once

#include "entities/shift.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

/// The shifts the Shifts page lists as a CSV file (issue 28), in the form of the transactions' export (CsvExport:
/// RFC 4180, CRLF, money as plain rupees "2000.00", times IST "YYYY-MM-DD HH:MM:SS", spreadsheet formulas
/// defused). A day's shifts are few: written at once, to a temporary file renamed into place.
class ShiftsCsv
{
    Q_DECLARE_TR_FUNCTIONS(ShiftsCsv)

public:
    /// The header line's fields: shift_id, terminal, clerk, state, opened_at, closed_at, opening_cash, cash_sales,
    /// cash_sales_count, upi_sales, upi_sales_count, unrecorded_sales, unrecorded_sales_count, cash_refunds, cash_in,
    /// cash_out, expected_cash, counted_cash, difference (counted − expected), closed_by, close_note. A figure the
    /// shift does not have (not counted yet, hidden by a blind count) is empty.
    static QStringList header();
    /// The fields of `shift`, in header() order.
    static QStringList fields(const Shift &shift);
    /// Writes the header and `shifts` to `path`; false (and *error, for people) if the file cannot be written.
    static bool write(const QString &path, const QList<Shift> &shifts, QString *error = nullptr);
};

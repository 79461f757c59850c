#include "shiftscsv.h"

#include "clock.h"
#include "csvexport.h"

#include <QDir>
#include <QSaveFile>

namespace {

QString rupees(std::optional<Paise> paise)
{
    return paise ? CsvExport::rupees(*paise) : QString();
}

} // namespace

QStringList ShiftsCsv::header()
{
    return {QStringLiteral("shift_id"),
            QStringLiteral("terminal"),
            QStringLiteral("clerk"),
            QStringLiteral("state"),
            QStringLiteral("opened_at"),
            QStringLiteral("closed_at"),
            QStringLiteral("opening_cash"),
            QStringLiteral("cash_sales"),
            QStringLiteral("cash_sales_count"),
            QStringLiteral("upi_sales"),
            QStringLiteral("upi_sales_count"),
            QStringLiteral("unrecorded_sales"),
            QStringLiteral("unrecorded_sales_count"),
            QStringLiteral("cash_refunds"),
            QStringLiteral("cash_in"),
            QStringLiteral("cash_out"),
            QStringLiteral("expected_cash"),
            QStringLiteral("counted_cash"),
            QStringLiteral("difference"),
            QStringLiteral("closed_by"),
            QStringLiteral("close_note")};
}

QStringList ShiftsCsv::fields(const Shift &shift)
{
    return {QString::number(shift.id),
            shift.terminal,
            shift.clerk,
            shift.state,
            IstTime::format(shift.openedAt),
            shift.closedAt.isValid() ? IstTime::format(shift.closedAt) : QString(),
            CsvExport::rupees(shift.openingCash),
            CsvExport::rupees(shift.sales.cash.amount),
            QString::number(shift.sales.cash.count),
            CsvExport::rupees(shift.sales.upi.amount),
            QString::number(shift.sales.upi.count),
            CsvExport::rupees(shift.sales.unrecorded.amount),
            QString::number(shift.sales.unrecorded.count),
            CsvExport::rupees(shift.cashRefunds.amount),
            CsvExport::rupees(shift.cashIn),
            CsvExport::rupees(shift.cashOut),
            rupees(shift.expectedCash),
            rupees(shift.countedCash),
            rupees(shift.difference),
            shift.closedBy,
            shift.closeNote};
}

bool ShiftsCsv::write(const QString &path, const QList<Shift> &shifts, QString *error)
{
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        QString text = CsvExport::line(header());
        for (const Shift &shift : shifts)
            text += CsvExport::line(fields(shift));
        file.write(text.toUtf8());
        if (file.commit())
            return true;
    }
    if (error)
        *error = tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
}

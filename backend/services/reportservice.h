#pragma once

#include "store/reportrepository.h"

class Database;

/// Builds the reports of a day (IST) from the store (ReportRepository).
class ReportService
{
public:
    explicit ReportService(Database &db) : m_db(db) {}

    /// The day-end report of `date` (IST midnight to midnight), its complaints included (issue 29). Throws
    /// DatabaseError.
    DayEndReport dayEnd(qint64 accountId, Mode mode, const QDate &date);

private:
    Database &m_db;
};

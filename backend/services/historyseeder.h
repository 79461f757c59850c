#pragma once

#include "auth/authcontext.h"

#include <QStringList>

#include <functional>

class Database;
class OperatorCatalog;

/// Fills a database with realistic sales history for development and the back-office scale
/// benchmark (issue 6, `rechargedesk dev seed`): `count` transactions spread over the two years
/// before `endMs`, in shop hours with evening peaks, a realistic mix of operators and plan price
/// points, about 3.5 % FAILED (refunded), repeat customers (each with a circle, issue 29), clerks, and wallet top-ups
/// whenever the balance runs low — every sale with its ledger rows, so balance == ledger sum holds (and the benchmark
/// of the number lookup, issue 29).
class HistorySeeder
{
public:
    HistorySeeder(Database &db, const OperatorCatalog &catalog) : m_db(db), m_catalog(catalog) {}

    /// Inserts the history in transactions of a few thousand rows; `progress(done, total)` is
    /// called after each. Deterministic for a given `seed`. Throws DatabaseError.
    void seed(qint64 accountId, Mode mode, qint64 count, qint64 endMs, const QStringList &clerks, quint32 seed,
              const std::function<void(qint64, qint64)> &progress);

private:
    Database &m_db;
    const OperatorCatalog &m_catalog;
};

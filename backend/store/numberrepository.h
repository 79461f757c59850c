#pragma once

#include "auth/authcontext.h"

#include <QString>
#include <QVariantList>

#include <optional>

class Database;

/// What one account's SUCCESS mobile sales say about a phone number (issue 29): the operator of the latest, the circle
/// of the latest that carried one, when the latest was made (UTC ms) and how many there were.
struct NumberSales
{
    QString operatorCode;
    QString circleCode; ///< "" when no sale to the number carried a circle
    qint64 lastSoldAtMs = 0;
    qint64 count = 0;
};

/// The number lookup's reads (migration 18's partial index transactions_number_sold: SUCCESS mobile sales by
/// account, mode, number and time; migration 19's transactions_number_sold_network: the same without the account,
/// so a lookup reads a few index entries whatever the history's size). Only SUCCESS sales are read: a FAILED one
/// never teaches, whatever the upstream's words about the operator.
class NumberRepository
{
public:
    explicit NumberRepository(Database &db) : m_db(db) {}

    /// The account's SUCCESS mobile sales of `mode` to `number`, the latest (by its sale time, then id) deciding the
    /// operator; nullopt when there is none. Throws DatabaseError.
    std::optional<NumberSales> lastSold(qint64 accountId, Mode mode, const QString &number);
    /// The same of every account's SUCCESS mobile sales of `mode` (a distributor's network of shops, issue 29): only
    /// the operator, circle, time and count, never which account sold. Throws DatabaseError.
    std::optional<NumberSales> lastSoldInNetwork(Mode mode, const QString &number);

private:
    /// The sales `sold` (" FROM transactions WHERE ...", its placeholders bound to `values`) select, as above.
    std::optional<NumberSales> read(const QString &sold, const QVariantList &values);

    Database &m_db;
};

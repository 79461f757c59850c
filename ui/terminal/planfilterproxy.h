#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

/// Filters a PlanTableModel by price range (whole rupees, inclusive; 0 means no bound) and by text: every word of
/// the search text must occur, case-insensitively, in the plan's SearchTextRole (price, benefit, data, validity,
/// subscription names…), so "299" finds the ₹299 plans. Sorts by amount.
class PlanFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanFilterProxy)

public:
    explicit PlanFilterProxy(QObject *parent = nullptr);

    /// Keeps plans with minRupees <= amount <= maxRupees; a bound of 0 is no bound.
    void setPriceRange(qint64 minRupees, qint64 maxRupees);
    /// Keeps plans whose text holds every blank-separated word of `text`; empty keeps all.
    void setSearchText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    qint64 m_minRupees = 0;
    qint64 m_maxRupees = 0;
    QStringList m_words;
};

#include "planfilterproxy.h"

#include "plantablemodel.h"

PlanFilterProxy::PlanFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(PlanTableModel::AmountRole);
    setDynamicSortFilter(true);
}

void PlanFilterProxy::setPriceRange(qint64 minRupees, qint64 maxRupees)
{
    if (minRupees == m_minRupees && maxRupees == m_maxRupees)
        return;
    m_minRupees = minRupees;
    m_maxRupees = maxRupees;
    invalidateFilter();
}

void PlanFilterProxy::setSearchText(const QString &text)
{
    const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateFilter();
}

bool PlanFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const qint64 amount = index.data(PlanTableModel::AmountRole).toLongLong();
    if (m_minRupees > 0 && amount < m_minRupees)
        return false;
    if (m_maxRupees > 0 && amount > m_maxRupees)
        return false;
    if (m_words.isEmpty())
        return true;
    const QString text = index.data(PlanTableModel::SearchTextRole).toString();
    for (const QString &word : m_words) {
        if (!text.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

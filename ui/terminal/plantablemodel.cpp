#include "plantablemodel.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QJsonArray>
#include <QPainter>

QString PlanItem::summary() const
{
    return QCoreApplication::translate("PlanItem", "%1 · %2 · %3")
        .arg(Money::formatIndianRupees(amountRupees), validity, benefit);
}

SoldPlan PlanItem::soldPlan() const
{
    return SoldPlan{amountRupees * Money::kPaisePerRupee, validity, benefit};
}

QString PlanItem::searchText() const
{
    // The price first, with and without the rupee sign, so "299" and "₹299" find the ₹299 plans.
    QStringList parts{QStringLiteral("₹%1").arg(amountRupees), benefit, data, validity, calls, sms, talktime, remark};
    for (const PlanSubscription &subscription : subscriptions)
        parts << subscription.name << subscription.description;
    return parts.join(QLatin1Char('\n'));
}

QList<PlanCategory> PlanCategory::listFromJson(const QJsonObject &data)
{
    QList<PlanCategory> categories;
    const QJsonArray categoryArray = data.value(QStringLiteral("categories")).toArray();
    for (const QJsonValue &categoryValue : categoryArray) {
        const QJsonObject categoryObject = categoryValue.toObject();
        PlanCategory category;
        category.name = categoryObject.value(QStringLiteral("name")).toString();
        const QJsonArray items = categoryObject.value(QStringLiteral("items")).toArray();
        for (const QJsonValue &itemValue : items) {
            const QJsonObject item = itemValue.toObject();
            PlanItem plan;
            plan.planId = item.value(QStringLiteral("plan_id")).toInteger();
            plan.amountRupees = item.value(QStringLiteral("amount")).toInteger();
            plan.validity = item.value(QStringLiteral("validity")).toString();
            plan.talktime = item.value(QStringLiteral("talktime")).toString();
            plan.benefit = item.value(QStringLiteral("benefit")).toString();
            plan.calls = item.value(QStringLiteral("calls")).toString();
            plan.sms = item.value(QStringLiteral("sms")).toString();
            plan.data = item.value(QStringLiteral("data")).toString();
            plan.remark = item.value(QStringLiteral("remark")).toString();
            const QJsonArray subscriptions = item.value(QStringLiteral("subscriptions")).toArray();
            for (const QJsonValue &subscriptionValue : subscriptions) {
                const QJsonObject subscription = subscriptionValue.toObject();
                plan.subscriptions.append({subscription.value(QStringLiteral("name")).toString(),
                                           subscription.value(QStringLiteral("description")).toString(),
                                           subscription.value(QStringLiteral("logo")).toString()});
            }
            category.items.append(plan);
        }
        categories.append(category);
    }
    return categories;
}

PlanTableModel::PlanTableModel(const QHash<QString, QPixmap> &logos, QObject *parent)
    : QAbstractTableModel(parent), m_logos(logos)
{}

void PlanTableModel::setPlans(const QList<PlanItem> &plans)
{
    beginResetModel();
    m_plans = plans;
    m_strips.clear();
    endResetModel();
}

const PlanItem *PlanTableModel::plan(int row) const
{
    return row >= 0 && row < m_plans.size() ? &m_plans.at(row) : nullptr;
}

void PlanTableModel::logoArrived(const QString &logo)
{
    m_strips.clear();
    for (int row = 0; row < m_plans.size(); ++row) {
        for (const PlanSubscription &subscription : m_plans.at(row).subscriptions) {
            if (subscription.logo == logo) {
                const QModelIndex cell = index(row, BenefitsColumn);
                emit dataChanged(cell, cell, {Qt::DecorationRole});
                break;
            }
        }
    }
}

int PlanTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_plans.size());
}

int PlanTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlanItem &plan = m_plans.at(index.row());
    switch (role) {
    case AmountRole:
        return plan.amountRupees;
    case SearchTextRole:
        return plan.searchText();
    case PlanIdRole:
        return plan.planId;
    case Qt::DisplayRole:
        switch (index.column()) {
        case AmountColumn:
            return Money::formatIndianRupees(plan.amountRupees);
        case ValidityColumn:
            return plan.validity;
        case DataColumn:
            return plan.data;
        case CallsColumn:
            return plan.calls;
        case SmsColumn:
            return plan.sms;
        case BenefitsColumn: {
            QStringList names;
            for (const PlanSubscription &subscription : plan.subscriptions)
                names << subscription.name;
            return names.join(QStringLiteral(", "));
        }
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (index.column() == BenefitsColumn && !plan.subscriptions.isEmpty()) {
            const QPixmap strip = logoStrip(plan);
            return strip.isNull() ? QVariant() : QVariant(strip);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == BenefitsColumn) {
            QStringList lines{plan.benefit};
            for (const PlanSubscription &subscription : plan.subscriptions)
                lines << subscription.name + QStringLiteral(": ") + subscription.description;
            return lines.join(QLatin1Char('\n'));
        }
        return plan.benefit;
    case Qt::TextAlignmentRole:
        return index.column() == AmountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (index.column() == AmountColumn) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case AmountColumn:
        return tr("Amount");
    case ValidityColumn:
        return tr("Validity");
    case DataColumn:
        return tr("Data");
    case CallsColumn:
        return tr("Calls");
    case SmsColumn:
        return tr("SMS");
    case BenefitsColumn:
        return tr("OTT and offers");
    default:
        return {};
    }
}

QPixmap PlanTableModel::logoStrip(const PlanItem &plan) const
{
    QStringList names;
    for (const PlanSubscription &subscription : plan.subscriptions) {
        if (m_logos.contains(subscription.logo) && !names.contains(subscription.logo))
            names << subscription.logo;
    }
    if (names.isEmpty())
        return {};
    const QString key = names.join(QLatin1Char('|'));
    const auto cached = m_strips.constFind(key);
    if (cached != m_strips.cend())
        return *cached;
    constexpr int kGap = 4;
    const qreal ratio = qApp ? qApp->devicePixelRatio() : 1.0;
    const int width = int(names.size()) * (kLogoSize + kGap) - kGap;
    QPixmap strip(QSize(width, kLogoSize) * ratio);
    strip.setDevicePixelRatio(ratio);
    strip.fill(Qt::transparent);
    QPainter painter(&strip);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    int x = 0;
    for (const QString &name : std::as_const(names)) {
        painter.drawPixmap(QRect(x, 0, kLogoSize, kLogoSize), m_logos.value(name));
        x += kLogoSize + kGap;
    }
    painter.end();
    m_strips.insert(key, strip);
    return strip;
}

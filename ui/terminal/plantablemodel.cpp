#include "plantablemodel.h"

#include "answerreader.h"

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

namespace {

/// Ends a codec: the value, or nullopt with the reader's error.
template <class T> std::optional<T> finish(const AnswerReader &in, T value, QString *error)
{
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return value;
}

} // namespace

std::optional<PlanSubscription> PlanSubscription::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("subscription"));
    PlanSubscription subscription;
    subscription.name = in.string(u"name");
    subscription.description = in.string(u"description");
    subscription.logo = in.string(u"logo");
    return finish(in, subscription, error);
}

std::optional<PlanItem> PlanItem::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("plan"));
    PlanItem plan;
    plan.planId = in.integer(u"plan_id");
    plan.amountRupees = in.integer(u"amount");
    plan.validity = in.string(u"validity");
    plan.talktime = in.string(u"talktime");
    plan.benefit = in.string(u"benefit");
    plan.calls = in.string(u"calls");
    plan.sms = in.string(u"sms");
    plan.data = in.string(u"data");
    plan.remark = in.string(u"remark");
    plan.subscriptions = in.list<PlanSubscription>(u"subscriptions", &PlanSubscription::fromJson);
    return finish(in, plan, error);
}

std::optional<PlanCategory> PlanCategory::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("category"));
    PlanCategory category;
    category.name = in.string(u"name");
    category.items = in.list<PlanItem>(u"items", &PlanItem::fromJson);
    return finish(in, category, error);
}

std::optional<PrepaidPlans> PrepaidPlans::fromJson(const QJsonObject &data, QString *error)
{
    AnswerReader in(data, QStringLiteral("prepaid plans"));
    PrepaidPlans plans;
    plans.operatorName = in.string(u"operator");
    plans.circleName = in.string(u"circle");
    plans.categories = in.list<PlanCategory>(u"categories", &PlanCategory::fromJson);
    return finish(in, plans, error);
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

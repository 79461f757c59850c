#pragma once

#include "receipts/receiptdata.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPixmap>
#include <QString>

#include <optional>

/// One subscription of a plan (api-v1.md "Subscription"): an OTT or other offer with its logo file name.
struct PlanSubscription
{
    QString name;
    QString description;
    QString logo;

    static std::optional<PlanSubscription> fromJson(const QJsonObject &json, QString *error);
};

/// One prepaid plan (api-v1.md "Plan"); amount in whole rupees.
struct PlanItem
{
    qint64 planId = 0;
    qint64 amountRupees = 0;
    QString validity;
    QString talktime;
    QString benefit;
    QString calls;
    QString sms;
    QString data;
    QString remark;
    QList<PlanSubscription> subscriptions;

    /// One line for the recharge screen and receipts: "₹299 · 28 days · Unlimited calls, 1 GB/day, …".
    QString summary() const;
    /// What a receipt prints about this plan when it is sold: price (paise), validity and benefits.
    SoldPlan soldPlan() const;
    /// The text the search box looks in: the price ("₹299"), benefit, data, validity, calls, SMS, remark and
    /// subscription names.
    QString searchText() const;

    /// Reads one plan of the answer strictly (every field of api-v1.md "Plan" is required).
    static std::optional<PlanItem> fromJson(const QJsonObject &json, QString *error);
};

/// One category of plans (api-v1.md "Category", entity `collection`).
struct PlanCategory
{
    QString name;
    QList<PlanItem> items;

    static std::optional<PlanCategory> fromJson(const QJsonObject &json, QString *error);
};

/// The `data` of a prepaid_plans answer (api-v1.md endpoint 4): the operator and circle by name
/// and their plans by category. Read strictly: a missing or mistyped field is an error naming it.
struct PrepaidPlans
{
    QString operatorName;
    QString circleName;
    QList<PlanCategory> categories;

    static std::optional<PrepaidPlans> fromJson(const QJsonObject &data, QString *error);
};

/// The plans of one category as a table: Amount (₹), Validity, Data, Calls, SMS and Benefits (OTT logos and
/// subscription names). AmountRole gives the amount in rupees (for sorting and the price filter), SearchTextRole the
/// text the search box matches. Logos come from a cache owned by the page; logoArrived() repaints the rows using one.
class PlanTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanTableModel)

public:
    enum Column
    {
        AmountColumn,
        ValidityColumn,
        DataColumn,
        CallsColumn,
        SmsColumn,
        BenefitsColumn,
        ColumnCount
    };
    enum Role
    {
        AmountRole = Qt::UserRole + 1,
        SearchTextRole,
        PlanIdRole
    };

    /// `logos` maps a logo file name to its rendered pixmap; it must outlive the model.
    explicit PlanTableModel(const QHash<QString, QPixmap> &logos, QObject *parent = nullptr);

    /// Replaces the rows (model reset).
    void setPlans(const QList<PlanItem> &plans);
    const QList<PlanItem> &plans() const { return m_plans; }
    /// The plan in `row`, or nullptr.
    const PlanItem *plan(int row) const;
    /// Repaints the Benefits cell of every row that shows `logo`.
    void logoArrived(const QString &logo);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Edge length of one logo in the Benefits column, in device-independent pixels.
    static constexpr int kLogoSize = 28;

private:
    QPixmap logoStrip(const PlanItem &plan) const;

    const QHash<QString, QPixmap> &m_logos;
    QList<PlanItem> m_plans;
    mutable QHash<QString, QPixmap> m_strips; ///< composed logo strips by joined logo names
};

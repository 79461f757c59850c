#include "entities/shopinfo.h"

#include "answerreader.h"

#include <QJsonArray>

QJsonObject DiscountRate::toJson() const
{
    return QJsonObject{{QStringLiteral("operator_code"), operatorCode},
                       {QStringLiteral("basis_points"), basisPoints},
                       {QStringLiteral("default_basis_points"), defaultBasisPoints}};
}

std::optional<DiscountRate> DiscountRate::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("discount rate"));
    DiscountRate rate;
    rate.operatorCode = in.string(u"operator_code");
    rate.basisPoints = int(in.integer(u"basis_points"));
    rate.defaultBasisPoints = int(in.integer(u"default_basis_points"));
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return rate;
}

QJsonObject ShopInfo::toJson() const
{
    QJsonArray rates;
    for (const DiscountRate &rate : discountRates)
        rates.append(rate.toJson());
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("shop")},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("address"), address},
                       {QStringLiteral("low_balance_threshold"), Money::format(lowBalanceThreshold)},
                       {QStringLiteral("idle_lock_seconds"), idleLockSeconds},
                       {QStringLiteral("discount_rates"), rates},
                       {QStringLiteral("sandbox_settle_delay_ms"), sandboxSettleDelayMs},
                       {QStringLiteral("circle_code"), circleCode},
                       {QStringLiteral("shifts_enabled"), shiftsEnabled},
                       {QStringLiteral("blind_count"), blindCount},
                       {QStringLiteral("upi_vpa"), upiVpa},
                       {QStringLiteral("upi_payee_name"), upiPayeeName},
                       {QStringLiteral("complaint_deadline_hours"), complaintDeadlineHours}};
}

std::optional<ShopInfo> ShopInfo::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("shop"));
    ShopInfo shop;
    shop.name = in.string(u"name");
    shop.address = in.string(u"address");
    shop.lowBalanceThreshold = in.money(u"low_balance_threshold");
    shop.idleLockSeconds = int(in.integer(u"idle_lock_seconds"));
    shop.discountRates = in.list<DiscountRate>(u"discount_rates", &DiscountRate::fromJson);
    shop.sandboxSettleDelayMs = in.integer(u"sandbox_settle_delay_ms");
    shop.circleCode = in.string(u"circle_code");
    shop.shiftsEnabled = in.boolean(u"shifts_enabled");
    shop.blindCount = in.boolean(u"blind_count");
    shop.upiVpa = in.string(u"upi_vpa");
    shop.upiPayeeName = in.string(u"upi_payee_name");
    shop.complaintDeadlineHours = int(in.integer(u"complaint_deadline_hours"));
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return shop;
}

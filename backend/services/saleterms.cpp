#include "saleterms.h"

#include "apierror.h"
#include "jsonfields.h"
#include "store/shopsettingsrepository.h"

namespace {

const QString kSettleDelayKey = QStringLiteral("sandbox_settle_delay_ms");
const QString kShiftsKey = QStringLiteral("shifts_enabled");

QString rateKey(const QString &operatorCode)
{
    return QStringLiteral("discount_bp.") + operatorCode;
}

} // namespace

std::optional<QString> SaleTerms::value(qint64 accountId, const QString &key) const
{
    return ShopSettingsRepository(m_db).value(accountId, key);
}

int SaleTerms::discountBasisPoints(qint64 accountId, const QString &operatorCode) const
{
    const OperatorInfo *info = m_catalog.findOperator(operatorCode);
    const int fallback = info ? info->discountBasisPoints : 0;
    bool ok = false;
    const int stored = value(accountId, rateKey(operatorCode)).value_or(QString()).toInt(&ok);
    return ok && stored >= 0 && stored <= kMaxBasisPoints ? stored : fallback;
}

QList<DiscountRate> SaleTerms::discountRates(qint64 accountId) const
{
    QMap<QString, int> stored;
    for (const auto &[key, value] : ShopSettingsRepository(m_db).all(accountId)) {
        bool ok = false;
        const int basisPoints = value.toInt(&ok);
        if (ok && basisPoints >= 0 && basisPoints <= kMaxBasisPoints)
            stored.insert(key, basisPoints);
    }
    QList<DiscountRate> rates;
    for (ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
        for (const OperatorInfo &info : m_catalog.operators(kind))
            rates.append(
                {info.code, stored.value(rateKey(info.code), info.discountBasisPoints), info.discountBasisPoints});
    }
    return rates;
}

qint64 SaleTerms::settleDelayMs(qint64 accountId) const
{
    bool ok = false;
    const qint64 stored = value(accountId, kSettleDelayKey).value_or(QString()).toLongLong(&ok);
    return ok && stored >= 0 && stored <= kMaxSettleDelayMs ? stored : m_defaultSettleDelayMs;
}

void SaleTerms::validateRates(const QMap<QString, qint64> &basisPoints) const
{
    for (auto it = basisPoints.cbegin(); it != basisPoints.cend(); ++it) {
        const QString field = QStringLiteral("discount_basis_points.") + it.key();
        if (!m_catalog.findOperator(it.key()))
            throw ApiError::badRequest(field, QStringLiteral("unknown_operator"),
                                       QStringLiteral("%1 is not an operator code; use one of %2 %3 %4")
                                           .arg(it.key(), m_catalog.codeList(ProductKind::Mobile),
                                                m_catalog.codeList(ProductKind::Dth), m_catalog.voucherIssuer().code));
        if (it.value() < 0 || it.value() > kMaxBasisPoints)
            throw ApiError::badRequest(field, QStringLiteral("out_of_range"),
                                       QStringLiteral("%1 must be a whole number of basis points from 0 to %2 "
                                                      "(0 % to %3 %)")
                                           .arg(field)
                                           .arg(kMaxBasisPoints)
                                           .arg(kMaxBasisPoints / 100));
    }
}

void SaleTerms::validateSettleDelay(qint64 delayMs)
{
    if (delayMs < 0 || delayMs > kMaxSettleDelayMs)
        throw ApiError::badRequest(QStringLiteral("sandbox_settle_delay_ms"), QStringLiteral("out_of_range"),
                                   QStringLiteral("sandbox_settle_delay_ms must be a whole number of milliseconds "
                                                  "from 0 to %1")
                                       .arg(kMaxSettleDelayMs));
}

void SaleTerms::storeRates(qint64 accountId, const QMap<QString, qint64> &basisPoints)
{
    validateRates(basisPoints);
    for (auto it = basisPoints.cbegin(); it != basisPoints.cend(); ++it)
        ShopSettingsRepository(m_db).put(accountId, rateKey(it.key()), QString::number(it.value()));
}

void SaleTerms::storeSettleDelay(qint64 accountId, qint64 delayMs)
{
    validateSettleDelay(delayMs);
    ShopSettingsRepository(m_db).put(accountId, kSettleDelayKey, QString::number(delayMs));
}

bool SaleTerms::shiftsRequired(qint64 accountId) const
{
    return value(accountId, kShiftsKey) == QLatin1String("1");
}

void SaleTerms::storeShiftsRequired(qint64 accountId, bool required)
{
    ShopSettingsRepository(m_db).put(accountId, kShiftsKey, required ? QStringLiteral("1") : QStringLiteral("0"));
}

QMap<QString, qint64> SaleTerms::ratesFromJson(const QJsonValue &value)
{
    const QString field = QStringLiteral("discount_basis_points");
    if (!value.isObject())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"),
                                   field + QStringLiteral(" must be an object of operator code to basis points, "
                                                          "e.g. {\"AT\": 250}"));
    QMap<QString, qint64> rates;
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const std::optional<qint64> basisPoints = JsonFields::coerceInteger(it.value());
        if (!basisPoints)
            throw ApiError::badRequest(
                field + QLatin1Char('.') + it.key(), QStringLiteral("not_an_integer"),
                QStringLiteral("%1.%2 must be a whole number of basis points (250 = 2.5 %)").arg(field, it.key()));
        rates.insert(it.key(), *basisPoints);
    }
    return rates;
}

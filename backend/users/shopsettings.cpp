#include "shopsettings.h"

#include "apierror.h"
#include "auditlog.h"
#include "store/database.h"
#include "store/shopsettingsrepository.h"
#include "validators.h"

#include <QStringList>

namespace {

const QString kName = QStringLiteral("name");
const QString kAddress = QStringLiteral("address");
const QString kThreshold = QStringLiteral("low_balance_threshold");
const QString kIdleLock = QStringLiteral("idle_lock_seconds");
const QString kCircle = QStringLiteral("circle_code");

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

} // namespace

ShopInfo ShopSettings::get(qint64 accountId)
{
    ShopInfo info;
    for (const auto &[key, value] : ShopSettingsRepository(m_db).all(accountId)) {
        bool ok = false;
        if (key == kName) {
            info.name = value;
        } else if (key == kAddress) {
            info.address = value;
        } else if (key == kThreshold) {
            const qint64 paise = value.toLongLong(&ok);
            if (ok)
                info.lowBalanceThreshold = paise;
        } else if (key == kCircle) {
            info.circleCode = value;
        } else if (key == kIdleLock) {
            const int seconds = value.toInt(&ok);
            if (ok)
                info.idleLockSeconds = seconds;
        }
    }
    info.discountRates = m_terms.discountRates(accountId);
    info.sandboxSettleDelayMs = m_terms.settleDelayMs(accountId);
    return info;
}

void ShopSettings::validate(const ShopUpdate &update)
{
    if (update.name && (update.name->trimmed().isEmpty() || update.name->trimmed().size() > kMaxName ||
                        !Validators::isPlainText(*update.name)))
        throw ApiError::badRequest(QStringLiteral("name"), QStringLiteral("invalid_name"),
                                   QStringLiteral("name must be 1 to %1 characters on one line").arg(kMaxName));
    if (update.address &&
        (update.address->trimmed().size() > kMaxAddress || !Validators::isPlainText(*update.address, true)))
        throw ApiError::badRequest(QStringLiteral("address"), QStringLiteral("invalid_address"),
                                   QStringLiteral("address must be at most %1 characters").arg(kMaxAddress));
    if (update.lowBalanceThresholdRupees &&
        (*update.lowBalanceThresholdRupees < 0 || *update.lowBalanceThresholdRupees > kMaxThresholdRupees))
        throw ApiError::badRequest(QStringLiteral("low_balance_threshold_rupees"), QStringLiteral("out_of_range"),
                                   QStringLiteral("low_balance_threshold_rupees must be a whole number from 0 to %1")
                                       .arg(kMaxThresholdRupees));
    if (update.idleLockSeconds && (*update.idleLockSeconds < kMinIdleLock || *update.idleLockSeconds > kMaxIdleLock))
        throw ApiError::badRequest(QStringLiteral("idle_lock_seconds"), QStringLiteral("out_of_range"),
                                   QStringLiteral("idle_lock_seconds must be a whole number from %1 to %2")
                                       .arg(kMinIdleLock)
                                       .arg(kMaxIdleLock));
}

void ShopSettings::storeBasics(Database &db, qint64 accountId, const ShopUpdate &update)
{
    Q_ASSERT(!update.discountBasisPoints && !update.sandboxSettleDelayMs);
    validate(update);
    ShopSettingsRepository settings(db);
    if (update.name)
        settings.put(accountId, kName, update.name->trimmed());
    if (update.address)
        settings.put(accountId, kAddress, update.address->trimmed());
    if (update.lowBalanceThresholdRupees)
        settings.put(accountId, kThreshold, QString::number(*update.lowBalanceThresholdRupees * Money::kPaisePerRupee));
    if (update.idleLockSeconds)
        settings.put(accountId, kIdleLock, QString::number(*update.idleLockSeconds));
    if (update.circleCode)
        settings.put(accountId, kCircle, *update.circleCode);
}

ShopInfo ShopSettings::update(qint64 accountId, const ShopUpdate &update, AuditLog &audit, const QString &actor)
{
    if (update.isEmpty())
        throw ApiError::badRequest(QString(), QStringLiteral("nothing_to_update"),
                                   QStringLiteral("send at least one of name, address, low_balance_threshold_rupees, "
                                                  "idle_lock_seconds, discount_basis_points, sandbox_settle_delay_ms, "
                                                  "circle_code"));
    validate(update);
    if (update.circleCode && !update.circleCode->isEmpty() && !m_terms.catalog().findCircle(*update.circleCode))
        throw ApiError::badRequest(QStringLiteral("circle_code"), QStringLiteral("invalid_circle_code"),
                                   QStringLiteral("circle_code must be a two-letter code of the circle table, e.g. "
                                                  "RJ, or \"\" for none"));
    if (update.discountBasisPoints)
        m_terms.validateRates(*update.discountBasisPoints);
    if (update.sandboxSettleDelayMs)
        SaleTerms::validateSettleDelay(*update.sandboxSettleDelayMs);
    ShopUpdate basics = update;
    basics.discountBasisPoints.reset();
    basics.sandboxSettleDelayMs.reset();
    WriteTransaction transaction(m_db);
    const ShopInfo before = get(accountId);
    storeBasics(m_db, accountId, basics);
    if (update.discountBasisPoints)
        m_terms.storeRates(accountId, *update.discountBasisPoints);
    if (update.sandboxSettleDelayMs)
        m_terms.storeSettleDelay(accountId, *update.sandboxSettleDelayMs);
    const ShopInfo after = get(accountId);
    QStringList changes;
    if (before.name != after.name)
        changes.append(QStringLiteral("name %1 -> %2").arg(quoted(before.name), quoted(after.name)));
    if (before.address != after.address)
        changes.append(QStringLiteral("address %1 -> %2").arg(quoted(before.address), quoted(after.address)));
    if (before.lowBalanceThreshold != after.lowBalanceThreshold)
        changes.append(QStringLiteral("low balance threshold %1 -> %2")
                           .arg(Money::format(before.lowBalanceThreshold), Money::format(after.lowBalanceThreshold)));
    if (before.circleCode != after.circleCode)
        changes.append(QStringLiteral("circle %1 -> %2").arg(quoted(before.circleCode), quoted(after.circleCode)));
    if (before.idleLockSeconds != after.idleLockSeconds)
        changes.append(QStringLiteral("idle lock %1 s -> %2 s").arg(before.idleLockSeconds).arg(after.idleLockSeconds));
    for (qsizetype i = 0; i < after.discountRates.size() && i < before.discountRates.size(); ++i) {
        const DiscountRate &was = before.discountRates.at(i);
        const DiscountRate &now = after.discountRates.at(i);
        if (was.basisPoints != now.basisPoints)
            changes.append(
                QStringLiteral("discount %1 %2 -> %3")
                    .arg(now.operatorCode, Money::formatRate(was.basisPoints), Money::formatRate(now.basisPoints)));
    }
    if (before.sandboxSettleDelayMs != after.sandboxSettleDelayMs)
        changes.append(QStringLiteral("sandbox settle delay %1 ms -> %2 ms")
                           .arg(before.sandboxSettleDelayMs)
                           .arg(after.sandboxSettleDelayMs));
    if (!changes.isEmpty())
        audit.record(accountId, actor, QStringLiteral("shop.update"), changes.join(QStringLiteral("; ")));
    transaction.commit();
    return after;
}

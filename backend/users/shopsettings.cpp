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
const QString kBlindCount = QStringLiteral("blind_count");
const QString kUpiVpa = QStringLiteral("upi_vpa");
const QString kUpiPayeeName = QStringLiteral("upi_payee_name");
const QString kComplaintDeadline = QStringLiteral("complaint_deadline_hours");

QString onOff(bool on)
{
    return on ? QStringLiteral("on") : QStringLiteral("off");
}

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
        } else if (key == kBlindCount) {
            info.blindCount = value == QLatin1String("1");
        } else if (key == kUpiVpa) {
            info.upiVpa = value;
        } else if (key == kUpiPayeeName) {
            info.upiPayeeName = value;
        } else if (key == kComplaintDeadline) {
            const int hours = value.toInt(&ok);
            if (ok)
                info.complaintDeadlineHours = hours;
        } else if (key == kIdleLock) {
            const int seconds = value.toInt(&ok);
            if (ok)
                info.idleLockSeconds = seconds;
        }
    }
    info.discountRates = m_terms.discountRates(accountId);
    info.sandboxSettleDelayMs = m_terms.settleDelayMs(accountId);
    info.shiftsEnabled = m_terms.shiftsRequired(accountId);
    return info;
}

bool ShopSettings::blindCount(qint64 accountId)
{
    return ShopSettingsRepository(m_db).value(accountId, kBlindCount) == QLatin1String("1");
}

qint64 ShopSettings::complaintDeadlineMs(qint64 accountId)
{
    bool ok = false;
    const int hours = ShopSettingsRepository(m_db).value(accountId, kComplaintDeadline).value_or(QString()).toInt(&ok);
    return qint64(ok && hours > 0 ? hours : kDefaultComplaintDeadlineHours) * 3600 * 1000;
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
    if (update.upiVpa && !update.upiVpa->isEmpty() && !Validators::isUpiVpa(*update.upiVpa))
        throw ApiError::badRequest(QStringLiteral("upi_vpa"), QStringLiteral("invalid_upi_vpa"),
                                   QStringLiteral("upi_vpa must be a UPI ID such as sharmamobile@okaxis, or \"\" for "
                                                  "none"));
    if (update.upiPayeeName &&
        (update.upiPayeeName->size() > kMaxUpiPayeeName || !Validators::isPlainText(*update.upiPayeeName)))
        throw ApiError::badRequest(
            QStringLiteral("upi_payee_name"), QStringLiteral("invalid_upi_payee_name"),
            QStringLiteral("upi_payee_name must be at most %1 characters on one line").arg(kMaxUpiPayeeName));
    if (update.complaintDeadlineHours &&
        (*update.complaintDeadlineHours < 1 || *update.complaintDeadlineHours > kMaxComplaintDeadlineHours))
        throw ApiError::badRequest(QStringLiteral("complaint_deadline_hours"), QStringLiteral("out_of_range"),
                                   QStringLiteral("complaint_deadline_hours must be a whole number from 1 to %1")
                                       .arg(kMaxComplaintDeadlineHours));
}

void ShopSettings::storeBasics(Database &db, qint64 accountId, const ShopUpdate &update)
{
    Q_ASSERT(!update.discountBasisPoints && !update.sandboxSettleDelayMs && !update.shiftsEnabled);
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
    if (update.blindCount)
        settings.put(accountId, kBlindCount, *update.blindCount ? QStringLiteral("1") : QStringLiteral("0"));
    if (update.upiVpa)
        settings.put(accountId, kUpiVpa, *update.upiVpa);
    if (update.upiPayeeName)
        settings.put(accountId, kUpiPayeeName, *update.upiPayeeName);
    if (update.complaintDeadlineHours)
        settings.put(accountId, kComplaintDeadline, QString::number(*update.complaintDeadlineHours));
}

ShopInfo ShopSettings::update(qint64 accountId, const ShopUpdate &update, AuditLog &audit, const QString &actor)
{
    if (update.isEmpty())
        throw ApiError::badRequest(QString(), QStringLiteral("nothing_to_update"),
                                   QStringLiteral("send at least one of name, address, low_balance_threshold_rupees, "
                                                  "idle_lock_seconds, discount_basis_points, sandbox_settle_delay_ms, "
                                                  "circle_code, shifts_enabled, blind_count, upi_vpa, upi_payee_name, "
                                                  "complaint_deadline_hours"));
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
    basics.shiftsEnabled.reset();
    WriteTransaction transaction(m_db);
    const ShopInfo before = get(accountId);
    storeBasics(m_db, accountId, basics);
    if (update.discountBasisPoints)
        m_terms.storeRates(accountId, *update.discountBasisPoints);
    if (update.sandboxSettleDelayMs)
        m_terms.storeSettleDelay(accountId, *update.sandboxSettleDelayMs);
    if (update.shiftsEnabled)
        m_terms.storeShiftsRequired(accountId, *update.shiftsEnabled);
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
    if (before.shiftsEnabled != after.shiftsEnabled)
        changes.append(QStringLiteral("shifts %1 -> %2").arg(onOff(before.shiftsEnabled), onOff(after.shiftsEnabled)));
    if (before.blindCount != after.blindCount)
        changes.append(QStringLiteral("blind count %1 -> %2").arg(onOff(before.blindCount), onOff(after.blindCount)));
    if (before.upiVpa != after.upiVpa)
        changes.append(QStringLiteral("UPI ID %1 -> %2").arg(quoted(before.upiVpa), quoted(after.upiVpa)));
    if (before.upiPayeeName != after.upiPayeeName)
        changes.append(
            QStringLiteral("UPI payee name %1 -> %2").arg(quoted(before.upiPayeeName), quoted(after.upiPayeeName)));
    if (before.complaintDeadlineHours != after.complaintDeadlineHours)
        changes.append(QStringLiteral("complaint deadline %1 h -> %2 h")
                           .arg(before.complaintDeadlineHours)
                           .arg(after.complaintDeadlineHours));
    if (!changes.isEmpty())
        audit.record(accountId, actor, QStringLiteral("shop.update"), changes.join(QStringLiteral("; ")));
    transaction.commit();
    return after;
}

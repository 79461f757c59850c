#include "historyseeder.h"

#include "entities/transactionrecord.h"
#include "money.h"
#include "operatorcatalog.h"
#include "store/database.h"
#include "store/transactionrepository.h"
#include "store/walletrepository.h"

#include <QRandomGenerator>

#include <algorithm>
#include <vector>

namespace {

constexpr qint64 kDayMs = 24LL * 3600 * 1000;
constexpr qint64 kIstOffsetMs = (5LL * 3600 + 30 * 60) * 1000;
constexpr int kRowsPerCommit = 5000;
constexpr Paise kTopupAmount = 50'000LL * 100;
constexpr Paise kLowBalance = 5'000LL * 100;

// Relative sales per IST hour of the day: closed at night, busy late morning and evening.
constexpr int kHourWeights[24] = {0, 0, 0, 0, 0, 0, 0, 2, 5, 8, 10, 11, 10, 8, 7, 7, 8, 10, 13, 14, 12, 8, 3, 0};

template <typename T> const T &pickWeighted(QRandomGenerator &rng, const std::vector<std::pair<T, int>> &choices)
{
    int total = 0;
    for (const auto &[value, weight] : choices)
        total += weight;
    int roll = int(rng.bounded(total));
    for (const auto &[value, weight] : choices) {
        if (roll < weight)
            return value;
        roll -= weight;
    }
    return choices.back().first;
}

qint64 randomSaleTime(QRandomGenerator &rng, qint64 startMs, int days)
{
    int total = 0;
    for (int w : kHourWeights)
        total += w;
    int roll = int(rng.bounded(total));
    int hour = 0;
    while (roll >= kHourWeights[hour])
        roll -= kHourWeights[hour++];
    const qint64 day = rng.bounded(days);
    // startMs is an IST midnight; add the day, the hour and a random offset inside it.
    return startMs + day * kDayMs + hour * 3'600'000LL + qint64(rng.bounded(3'600'000));
}

QString redeemCode(QRandomGenerator &rng)
{
    static const char kAlphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    QString code;
    for (int i = 0; i < 16; ++i) {
        if (i > 0 && i % 4 == 0)
            code += QLatin1Char('-');
        code += QLatin1Char(kAlphabet[rng.bounded(31)]);
    }
    return code;
}

} // namespace

void HistorySeeder::seed(qint64 accountId, Mode mode, qint64 count, qint64 endMs, const QStringList &clerks,
                         quint32 seed, const std::function<void(qint64, qint64)> &progress)
{
    QRandomGenerator rng(seed);
    const int days = 730;
    const qint64 endIstMidnight = (endMs + kIstOffsetMs) / kDayMs * kDayMs - kIstOffsetMs;
    const qint64 startMs = endIstMidnight - qint64(days) * kDayMs;

    std::vector<qint64> times(static_cast<size_t>(count));
    for (qint64 &t : times)
        t = std::min(randomSaleTime(rng, startMs, days), endMs - 1);
    std::sort(times.begin(), times.end());

    const std::vector<std::pair<QString, int>> mobile{
        {QStringLiteral("RJ"), 40}, {QStringLiteral("AT"), 33}, {QStringLiteral("VI"), 20}, {QStringLiteral("BS"), 7}};
    const std::vector<std::pair<QString, int>> dth{{QStringLiteral("TS"), 30}, {QStringLiteral("DT"), 20},
                                                   {QStringLiteral("AD"), 20}, {QStringLiteral("VC"), 13},
                                                   {QStringLiteral("SD"), 12}, {QStringLiteral("BT"), 5}};
    const std::vector<std::pair<TransactionType, int>> types{
        {TransactionType::Mobile, 75}, {TransactionType::Dth, 15}, {TransactionType::Voucher, 10}};
    const QList<qint64> mobileAmounts{19,  22,  29,  49,  99,  155, 179, 199, 209, 239,  249,  265,  299,
                                      319, 349, 399, 479, 579, 666, 719, 859, 899, 1199, 1799, 1999, 2399};
    const QList<qint64> dthAmounts{153, 200, 250, 299, 350, 400, 499, 599, 1000, 1500, 2000};
    const QList<qint64> voucherAmounts{10, 25, 50, 100, 150, 250, 300, 500, 1000, 1500, 2000};

    QList<QString> customers;
    for (int i = 0; i < 20'000; ++i)
        customers.append(QString::number(6 + rng.bounded(4)) + QString::number(rng.bounded(100'000'000, 999'999'999)));
    // Each customer's circle (issue 29: the number lookup answers it), from a generator of its own so that the sales
    // drawn from `rng` stay what they were for a seed.
    QRandomGenerator circleRng(seed ^ 0x2900u);
    const QList<CircleInfo> &circleTable = m_catalog.circles();
    QList<QString> circles;
    for (qsizetype i = 0; i < customers.size(); ++i)
        circles.append(circleTable.at(circleRng.bounded(qsizetype(circleTable.size()))).code);

    WalletRepository wallets(m_db);
    TransactionRepository transactions(m_db);
    Paise balance = wallets.balance(accountId, mode);
    qint64 done = 0;
    while (done < count) {
        WriteTransaction transaction(m_db);
        const qint64 batchEnd = std::min(count, done + kRowsPerCommit);
        for (; done < batchEnd; ++done) {
            const qint64 at = times[size_t(done)];
            const TransactionType type = pickWeighted(rng, types);
            QString code;
            qint64 rupees = 0;
            QString number;
            QString circle;
            if (type == TransactionType::Mobile) {
                code = pickWeighted(rng, mobile);
                const qsizetype customer = rng.bounded(qsizetype(customers.size()));
                number = customers.at(customer);
                circle = circles.at(customer);
                rupees = mobileAmounts.at(rng.bounded(qsizetype(mobileAmounts.size())));
            } else if (type == TransactionType::Dth) {
                code = pickWeighted(rng, dth);
                number = QString::number(rng.bounded(1'000'000'000, 1'999'999'999));
                rupees = dthAmounts.at(rng.bounded(qsizetype(dthAmounts.size())));
            } else {
                code = m_catalog.voucherIssuer().code;
                rupees = voucherAmounts.at(rng.bounded(qsizetype(voucherAmounts.size())));
            }
            const OperatorInfo *info = m_catalog.findOperator(code);
            rupees = std::clamp(rupees, info->minRupees, info->maxRupees);
            const Paise bill = rupees * Money::kPaisePerRupee;
            const Paise discount = Money::percentageOf(bill, info->discountBasisPoints);
            const Paise paid = bill - discount;
            const bool failed = rng.bounded(1000) < 35;
            if (balance < paid + kLowBalance) {
                wallets.post(accountId, mode, kTopupAmount, LedgerKind::Topup, 0, QStringLiteral("seeded top-up"),
                             QStringLiteral("seed"), at - 1);
                balance += kTopupAmount;
            }
            const QString reference =
                rng.bounded(4) == 0 ? QStringLiteral("POS-%1").arg(done + 1, 8, 10, QLatin1Char('0')) : QString();
            // Through the repository, so the daily_totals rollups are kept like for a real sale.
            // (The random draws stay in the order of the former direct INSERT: same seed, same data.)
            StoredTransaction row;
            row.accountId = accountId;
            row.mode = mode;
            row.fingerprint = QStringLiteral("seed");
            row.keyId = QStringLiteral("seed");
            TransactionRecord &r = row.record;
            r.type = type;
            r.operatorCode = code;
            r.number = number;
            r.billAmount = bill;
            r.discount = discount;
            r.paid = paid;
            r.customerEmail = type == TransactionType::Voucher && rng.bounded(3) == 0
                                  ? QStringLiteral("customer%1@example.com").arg(done)
                                  : QString();
            r.status = failed ? TransactionStatus::Failed : TransactionStatus::Success;
            if (type == TransactionType::Voucher && !failed)
                r.redeemCode = redeemCode(rng);
            r.referenceId = reference;
            r.circleCode = circle;
            r.createdAtMs = at;
            row.clerk = clerks.value(rng.bounded(qsizetype(clerks.size())));
            const qint64 id = transactions.insert(row, at);
            wallets.post(accountId, mode, -paid, LedgerKind::Debit, id, QString(), QString(), at);
            if (failed)
                wallets.post(accountId, mode, paid, LedgerKind::Refund, id,
                             QStringLiteral("refund of failed transaction"), QStringLiteral("system"), at);
            else
                balance -= paid;
        }
        transaction.commit();
        if (progress)
            progress(done, count);
    }
}

#include "shops/shopservice.h"

#include "apierror.h"
#include "clock.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "services/saleterms.h"
#include "services/walletservice.h"
#include "shops/contacttracker.h"
#include "shops/shopinput.h"
#include "shops/shoprepository.h"
#include "shops/shopstatementbuilder.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "store/walletrepository.h"

namespace {

constexpr qint64 kIstOffsetMs = 19'800'000;
constexpr qint64 kDayMs = 86'400'000;

/// "top-up by UPI, ref 4242: note" — what the ledger row says.
QString topupNote(const ShopTopup &topup)
{
    const QString how = topup.method == QLatin1String("cash")  ? QStringLiteral("cash")
                        : topup.method == QLatin1String("upi") ? QStringLiteral("UPI")
                                                               : QStringLiteral("bank transfer");
    QString note = QStringLiteral("top-up by ") + how;
    if (!topup.reference.isEmpty())
        note += QStringLiteral(", ref ") + topup.reference;
    if (!topup.note.isEmpty())
        note += QStringLiteral(": ") + topup.note;
    return note;
}

ApiError keyNotFound(const QString &keyId)
{
    return ApiError::notFound(QStringLiteral("key_not_found"),
                              QStringLiteral("this shop has no active key %1").arg(keyId));
}

void checkCreditLimit(Paise creditLimit)
{
    if (creditLimit < 0 || creditLimit > ShopService::kMaxCreditLimit)
        throw ApiError::badRequest(QStringLiteral("credit_limit"), QStringLiteral("credit_limit_out_of_range"),
                                   QStringLiteral("credit_limit must be 0 to %1 rupees")
                                       .arg(ShopService::kMaxCreditLimit / Money::kPaisePerRupee));
}

} // namespace

ShopService::ShopService(Database &db, const Clock &clock, const OperatorCatalog &catalog, ContactTracker *contacts)
    : m_db(db), m_clock(clock), m_catalog(catalog), m_contacts(contacts), m_audit(db, clock)
{}

QStringList ShopService::connectLines(const QString &baseUrl, const QString &keyId, const QString &secret)
{
    const QString url = baseUrl.isEmpty() ? QStringLiteral("https://DISTRIBUTOR-HOST:PORT/api/v1") : baseUrl;
    return {
        QStringLiteral("printf '%s' '%1' > secret.txt").arg(secret),
        QStringLiteral("rechargedesk upstream set --url %1 --key-id %2 --key-secret-file secret.txt").arg(url, keyId)};
}

AddedShop ShopService::add(const NewShop &shop, const QString &actor, const QString &baseUrl)
{
    const QString name = ShopInput::checkName(QStringLiteral("name"), shop.name);
    const QString owner = ShopInput::checkOwner(QStringLiteral("owner"), shop.owner);
    const QString mobile = ShopInput::checkMobile(QStringLiteral("mobile"), shop.mobile);
    const QString circle = ShopInput::checkCircle(QStringLiteral("circle_code"), shop.circleCode, m_catalog);
    const QString gstin = ShopInput::checkGstin(QStringLiteral("gstin"), shop.gstin);
    checkCreditLimit(shop.creditLimit);
    const ApiError exists =
        ApiError::conflict(QStringLiteral("shop_exists"),
                           QStringLiteral("an account called %1 already exists").arg(name), QStringLiteral("name"));
    if (name == ApiKeyService::defaultAccountName())
        throw exists;

    ApiKeyService keys(m_db, m_clock);
    AccountRepository accounts(m_db);
    ShopRepository shops(m_db);
    CreatedKey created;
    qint64 shopId = 0;
    try {
        WriteTransaction transaction(m_db);
        if (accounts.findAccount(name))
            throw exists;
        created = keys.createInTransaction(name, QStringLiteral("pos"), Mode::Live, Scope::Pos);
        shopId = *accounts.findAccount(name);
        const qint64 now = m_clock.nowMs();
        shops.updateDetails(shopId, owner, mobile, circle, gstin, now);
        shops.setCreatedBy(shopId, actor);
        shops.setCreditLimit(shopId, shop.creditLimit, now);
        recordAudit(actor, QStringLiteral("shop.add"),
                    QStringLiteral("%1 (id %2, owner %3, mobile %4, circle %5, credit limit %6)")
                        .arg(name)
                        .arg(shopId)
                        .arg(owner, mobile, circle, Money::format(shop.creditLimit)));
        transaction.commit();
    } catch (const DatabaseError &e) {
        if (e.isUniqueViolation()) // another server added the same name at the same moment
            throw exists;
        throw;
    }
    AddedShop added;
    added.shop = show(shopId);
    added.key = shopKey(created, baseUrl);
    return added;
}

void ShopService::checkListQuery(const ShopListQuery &query)
{
    static const QStringList sorts{QStringLiteral("name"),         QStringLiteral("balance"),
                                   QStringLiteral("sales"),        QStringLiteral("success_rate"),
                                   QStringLiteral("last_contact"), QStringLiteral("state")};
    if (!sorts.contains(query.sort))
        throw ApiError::badRequest(QStringLiteral("sort"), QStringLiteral("invalid_sort"),
                                   QStringLiteral("sort must be one of ") + sorts.join(QStringLiteral(", ")));
    if (!query.state.isEmpty() && !Shop::states().contains(query.state))
        throw ApiError::badRequest(QStringLiteral("state"), QStringLiteral("invalid_state"),
                                   QStringLiteral("state must be active or suspended"));
    if (query.limit < 1 || query.limit > kMaxListLimit)
        throw ApiError::badRequest(QStringLiteral("limit"), QStringLiteral("invalid_limit"),
                                   QStringLiteral("limit must be 1 to %1").arg(kMaxListLimit));
    if (query.offset < 0)
        throw ApiError::badRequest(QStringLiteral("cursor"), QStringLiteral("invalid_cursor"),
                                   QStringLiteral("the cursor was not handed out by this server"));
}

Page<Shop> ShopService::list(const ShopListQuery &query)
{
    checkListQuery(query);
    const qint64 total = ShopRepository(m_db).count(query);
    Page<Shop> page;
    page.items = ShopRepository(m_db).list(query, istDay());
    for (Shop &shop : page.items)
        withContact(shop);
    if (query.offset + page.items.size() < total)
        page.nextCursor = QString::number(query.offset + page.items.size());
    return page;
}

qint64 ShopService::count(const ShopListQuery &query)
{
    ShopListQuery all = query;
    all.limit = 1;
    all.offset = 0;
    checkListQuery(all);
    return ShopRepository(m_db).count(query);
}

Shop ShopService::show(qint64 shopId)
{
    std::optional<Shop> shop = ShopRepository(m_db).find(shopId, istDay());
    if (!shop)
        throw ApiError::notFound(QStringLiteral("shop_not_found"), QStringLiteral("no shop has id %1").arg(shopId));
    withContact(*shop);
    return *shop;
}

ShopDetail ShopService::detail(qint64 shopId)
{
    ShopDetail detail;
    detail.shop = show(shopId);
    detail.discountBasisPoints = margins(shopId);
    for (const ApiKeyRow &key : keys(shopId))
        detail.keys.append(ApiKeyService::toEntity(key));
    return detail;
}

qint64 ShopService::idByName(const QString &name)
{
    const std::optional<qint64> id = ShopRepository(m_db).idByName(name.trimmed());
    if (!id)
        throw ApiError::notFound(QStringLiteral("shop_not_found"), QStringLiteral("no shop is called %1").arg(name));
    return *id;
}

Shop ShopService::update(qint64 shopId, const ShopChanges &changes, const QString &actor)
{
    if (changes.isEmpty())
        throw ApiError::badRequest(QString(), QStringLiteral("nothing_to_update"),
                                   QStringLiteral("give owner, mobile, circle_code or gstin"));
    const Shop before = show(shopId);
    const QString owner = changes.owner ? ShopInput::checkOwner(QStringLiteral("owner"), *changes.owner) : before.owner;
    const QString mobile =
        changes.mobile ? ShopInput::checkMobile(QStringLiteral("mobile"), *changes.mobile) : before.mobile;
    const QString circle = changes.circleCode
                               ? ShopInput::checkCircle(QStringLiteral("circle_code"), *changes.circleCode, m_catalog)
                               : before.circleCode;
    const QString gstin = changes.gstin ? ShopInput::checkGstin(QStringLiteral("gstin"), *changes.gstin) : before.gstin;
    QStringList changed;
    const auto note = [&changed](const char *field, const QString &from, const QString &to) {
        if (from != to)
            changed.append(QStringLiteral("%1 \"%2\" -> \"%3\"").arg(QLatin1String(field), from, to));
    };
    note("owner", before.owner, owner);
    note("mobile", before.mobile, mobile);
    note("circle_code", before.circleCode, circle);
    note("gstin", before.gstin, gstin);
    WriteTransaction transaction(m_db);
    ShopRepository(m_db).updateDetails(shopId, owner, mobile, circle, gstin, m_clock.nowMs());
    if (!changed.isEmpty())
        recordAudit(actor, QStringLiteral("shop.update"),
                    QStringLiteral("%1: %2").arg(before.name, changed.join(QStringLiteral(", "))));
    transaction.commit();
    return show(shopId);
}

Shop ShopService::topup(qint64 shopId, const ShopTopup &topup, const QString &actor)
{
    if (topup.amount < Money::kPaisePerRupee || topup.amount > WalletService::kMaxTopup)
        throw ApiError::badRequest(
            QStringLiteral("amount"), QStringLiteral("amount_out_of_range"),
            QStringLiteral("amount must be 1 to %1 rupees").arg(WalletService::kMaxTopup / Money::kPaisePerRupee));
    if (topup.amount % Money::kPaisePerRupee != 0)
        throw ApiError::badRequest(QStringLiteral("amount"), QStringLiteral("invalid_amount"),
                                   QStringLiteral("amount must be whole rupees"));
    static const QStringList methods{QStringLiteral("cash"), QStringLiteral("upi"), QStringLiteral("bank")};
    if (!methods.contains(topup.method))
        throw ApiError::badRequest(QStringLiteral("method"), QStringLiteral("invalid_method"),
                                   QStringLiteral("method must be cash, upi or bank"));
    ShopTopup checked = topup;
    const bool referenceRequired = topup.method != QLatin1String("cash");
    checked.reference = ShopInput::checkText(QStringLiteral("reference"), topup.reference, referenceRequired ? 1 : 0,
                                             64, QStringLiteral("invalid_reference"));
    if (checked.reference.contains(QLatin1Char(' ')))
        throw ApiError::badRequest(QStringLiteral("reference"), QStringLiteral("invalid_reference"),
                                   QStringLiteral("reference must be the payment's reference without spaces"));
    checked.note =
        ShopInput::checkText(QStringLiteral("note"), topup.note, 0, kMaxNote, QStringLiteral("invalid_note"));
    const Shop shop = show(shopId);
    const QString note = topupNote(checked);
    WriteTransaction transaction(m_db);
    WalletRepository wallets(m_db);
    wallets.ensureWallet(shopId, Mode::Live);
    wallets.lock(shopId, Mode::Live);
    wallets.post(shopId, Mode::Live, checked.amount, LedgerKind::Topup, 0, note, actor, m_clock.nowMs());
    recordAudit(actor, QStringLiteral("shop.topup"),
                QStringLiteral("%1 live wallet +%2: %3").arg(shop.name, Money::format(checked.amount), note));
    transaction.commit();
    return show(shopId);
}

Shop ShopService::setCreditLimit(qint64 shopId, Paise creditLimit, const QString &actor)
{
    checkCreditLimit(creditLimit);
    const Shop before = show(shopId);
    WriteTransaction transaction(m_db);
    ShopRepository(m_db).setCreditLimit(shopId, creditLimit, m_clock.nowMs());
    recordAudit(
        actor, QStringLiteral("shop.credit_limit"),
        QStringLiteral("%1: %2 → %3").arg(before.name, Money::format(before.creditLimit), Money::format(creditLimit)));
    transaction.commit();
    return show(shopId);
}

QMap<QString, int> ShopService::margins(qint64 shopId)
{
    show(shopId);
    QMap<QString, int> rates;
    for (const DiscountRate &rate : SaleTerms(m_db, m_catalog, 0).discountRates(shopId))
        rates.insert(rate.operatorCode, rate.basisPoints);
    return rates;
}

QMap<QString, int> ShopService::setMargins(qint64 shopId, const QMap<QString, qint64> &basisPoints,
                                           const QString &actor)
{
    SaleTerms terms(m_db, m_catalog, 0);
    if (basisPoints.isEmpty())
        throw ApiError::badRequest(QStringLiteral("discount_basis_points"), QStringLiteral("empty"),
                                   QStringLiteral("discount_basis_points names no operator"));
    terms.validateRates(basisPoints);
    const QMap<QString, int> before = margins(shopId);
    const Shop shop = show(shopId);
    QStringList changed;
    for (auto it = basisPoints.cbegin(); it != basisPoints.cend(); ++it)
        if (before.value(it.key()) != it.value())
            changed.append(QStringLiteral("%1 %2 -> %3 bp").arg(it.key()).arg(before.value(it.key())).arg(it.value()));
    WriteTransaction transaction(m_db);
    terms.storeRates(shopId, basisPoints);
    if (!changed.isEmpty())
        recordAudit(actor, QStringLiteral("shop.margins"),
                    QStringLiteral("%1: %2").arg(shop.name, changed.join(QStringLiteral(", "))));
    transaction.commit();
    return margins(shopId);
}

Shop ShopService::suspend(qint64 shopId, const QString &reason, const QString &actor)
{
    const QString why =
        ShopInput::checkText(QStringLiteral("reason"), reason, 1, kMaxReason, QStringLiteral("invalid_reason"));
    const Shop shop = show(shopId);
    WriteTransaction transaction(m_db);
    if (!ShopRepository(m_db).setSuspended(shopId, why, m_clock.nowMs()))
        throw ApiError::conflict(QStringLiteral("shop_suspended"),
                                 QStringLiteral("%1 is already suspended").arg(shop.name));
    AccountRepository(m_db).bumpKeysVersion();
    recordAudit(actor, QStringLiteral("shop.suspend"), QStringLiteral("%1: %2").arg(shop.name, why));
    transaction.commit();
    return show(shopId);
}

Shop ShopService::resume(qint64 shopId, const QString &actor)
{
    const Shop shop = show(shopId);
    WriteTransaction transaction(m_db);
    if (!ShopRepository(m_db).setSuspended(shopId, QString(), m_clock.nowMs()))
        throw ApiError::conflict(QStringLiteral("shop_not_suspended"),
                                 QStringLiteral("%1 is not suspended").arg(shop.name));
    AccountRepository(m_db).bumpKeysVersion();
    recordAudit(actor, QStringLiteral("shop.resume"), shop.name);
    transaction.commit();
    return show(shopId);
}

QList<ApiKeyRow> ShopService::keys(qint64 shopId)
{
    show(shopId);
    QList<ApiKeyRow> own;
    for (const ApiKeyRow &key : AccountRepository(m_db).listKeys())
        if (key.accountId == shopId)
            own.append(key);
    return own;
}

ShopKey ShopService::createKey(qint64 shopId, const QString &name, Mode mode, const QString &actor,
                               const QString &baseUrl)
{
    const Shop shop = show(shopId);
    const QString keyName = name.trimmed();
    if (keyName.isEmpty() || keyName.size() > 80)
        throw ApiError::badRequest(QStringLiteral("name"), QStringLiteral("invalid_name"),
                                   QStringLiteral("the key name must be 1 to 80 characters"));
    JsonFields::requirePlainText(QStringLiteral("name"), keyName);
    WriteTransaction transaction(m_db);
    const CreatedKey created = ApiKeyService(m_db, m_clock).createInTransaction(shop.name, keyName, mode, Scope::Pos);
    recordAudit(
        actor, QStringLiteral("shop.key_create"),
        QStringLiteral("%1: %2 (%3, pos, \"%4\")").arg(shop.name, created.keyId, ModeNames::mode(mode), keyName));
    transaction.commit();
    return shopKey(created, baseUrl);
}

ApiKeyRow ShopService::activeKey(qint64 shopId, const QString &keyId)
{
    const std::optional<ApiKeyRow> key = AccountRepository(m_db).findKey(keyId);
    if (!key || key->accountId != shopId || key->revokedAtMs)
        throw keyNotFound(keyId);
    return *key;
}

ShopKey ShopService::rotateKey(qint64 shopId, const QString &keyId, const QString &actor, const QString &baseUrl)
{
    const Shop shop = show(shopId);
    const ApiKeyRow old = activeKey(shopId, keyId);
    WriteTransaction transaction(m_db);
    const CreatedKey created =
        ApiKeyService(m_db, m_clock).createInTransaction(shop.name, old.name, old.mode, Scope::Pos);
    if (!AccountRepository(m_db).revokeKey(keyId, m_clock.nowMs()))
        throw keyNotFound(keyId);
    recordAudit(actor, QStringLiteral("shop.key_rotate"),
                QStringLiteral("%1: %2 -> %3").arg(shop.name, keyId, created.keyId));
    transaction.commit();
    return shopKey(created, baseUrl);
}

ApiKeyRow ShopService::revokeKey(qint64 shopId, const QString &keyId, const QString &actor)
{
    const Shop shop = show(shopId);
    activeKey(shopId, keyId);
    WriteTransaction transaction(m_db);
    if (!AccountRepository(m_db).revokeKey(keyId, m_clock.nowMs()))
        throw keyNotFound(keyId);
    recordAudit(actor, QStringLiteral("shop.key_revoke"), QStringLiteral("%1: %2").arg(shop.name, keyId));
    transaction.commit();
    return *AccountRepository(m_db).findKey(keyId);
}

void ShopService::checkRange(const QDate &from, const QDate &to)
{
    if (!from.isValid() || !to.isValid() || from > to || from.daysTo(to) + 1 > kMaxStatementDays)
        throw ApiError::badRequest(QStringLiteral("from"), QStringLiteral("invalid_date_range"),
                                   QStringLiteral("from and to must be YYYY-MM-DD dates, from on or before to, at most "
                                                  "%1 days")
                                       .arg(kMaxStatementDays));
}

ShopStatement ShopService::statement(qint64 shopId, const QDate &from, const QDate &to, int limit, qint64 offset)
{
    checkRange(from, to);
    if (limit < 1 || limit > kMaxStatementLimit)
        throw ApiError::badRequest(QStringLiteral("limit"), QStringLiteral("invalid_limit"),
                                   QStringLiteral("limit must be 1 to %1").arg(kMaxStatementLimit));
    if (offset < 0)
        throw ApiError::badRequest(QStringLiteral("cursor"), QStringLiteral("invalid_cursor"),
                                   QStringLiteral("the cursor was not handed out by this server"));
    return ShopStatementBuilder(m_db).build(show(shopId), from, to, limit, offset);
}

QByteArray ShopService::statementCsv(qint64 shopId, const QDate &from, const QDate &to)
{
    checkRange(from, to);
    return ShopStatementBuilder::csv(ShopStatementBuilder(m_db).build(show(shopId), from, to, -1, 0));
}

qint64 ShopService::istDay() const
{
    return (m_clock.nowMs() + kIstOffsetMs) / kDayMs;
}

void ShopService::withContact(Shop &shop) const
{
    if (!m_contacts)
        return;
    const std::optional<qint64> seen = m_contacts->lastContactMs(shop.id);
    if (seen && (!shop.lastContactAt.isValid() || *seen > shop.lastContactAt.toMSecsSinceEpoch()))
        shop.lastContactAt = QDateTime::fromMSecsSinceEpoch(*seen, Qt::UTC);
}

void ShopService::recordAudit(const QString &actor, const QString &action, const QString &detail)
{
    const std::optional<qint64> distributor = AccountRepository(m_db).findAccount(ApiKeyService::defaultAccountName());
    if (distributor)
        m_audit.record(*distributor, actor, action, detail);
}

ShopKey ShopService::shopKey(const CreatedKey &created, const QString &baseUrl)
{
    ShopKey key;
    key.key = *AccountRepository(m_db).findKey(created.keyId);
    key.secret = created.secret;
    key.connect = connectLines(baseUrl, created.keyId, created.secret);
    return key;
}

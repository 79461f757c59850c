// `rechargedesk shops add|list|show|topup|limit|suspend|resume|statement`: the distributor's shops (issue 30), on the
// database the server uses, through the same ShopService as /api/v1/shops (so the same checks, ledger rows and audit
// entries; the actor is cli:<system user>). A running server sees every change at once (suspension within a second).
#include "apierror.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "commandline.h"
#include "money.h"
#include "operatorcatalog.h"
#include "shops/shopservice.h"
#include "store/database.h"

#include <QDate>
#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>

#include <cstdio>

namespace {

/// What a shops action needs: the database, the clock, the catalogue (circles, operators) and the service over them.
struct ShopsStore
{
    std::unique_ptr<Database> db;
    SystemClock clock;
    OperatorCatalog catalog = OperatorCatalog::builtIn();
    std::optional<ShopService> service;
};

std::unique_ptr<ShopsStore> openStore(const QCommandLineParser &parser)
{
    auto store = std::make_unique<ShopsStore>();
    store->db = CommandLine::openDatabase(parser);
    if (!store->db)
        return nullptr;
    store->service.emplace(*store->db, store->clock, store->catalog);
    return store;
}

/// Who the ledger and the audit log name: cli:<system user>, as `wallet topup` does.
QString actor()
{
    return QStringLiteral("cli:") + qEnvironmentVariable("USER", QStringLiteral("unknown"));
}

/// An ApiError from the service: bad input (400) is a usage error (exit 2); a shop that does not exist, or a change
/// refused by its state (404, 409), a failure (exit 1). Nothing was changed either way.
int refused(const ApiError &e)
{
    const QString field = e.field().isEmpty() ? QString() : QStringLiteral("%1: ").arg(e.field());
    std::fprintf(stderr, "rechargedesk: %s%s\n", qPrintable(field), qPrintable(e.description()));
    return e.httpStatus() == 400 ? 2 : 1;
}

/// Whole rupees ("5000") -> paise; nullopt for anything else (paise, signs, letters, more than 9 digits).
std::optional<Paise> wholeRupees(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9]{1,9}$"));
    if (!pattern.match(text.trimmed()).hasMatch())
        return std::nullopt;
    return text.trimmed().toLongLong() * Money::kPaisePerRupee;
}

/// The SHOP positional argument (an id, or the shop's name) of an action; prints a usage error and returns nullopt
/// when it is missing. A name that is no shop's, or an id that is not a shop, throws 404 from the service.
std::optional<qint64> shopArgument(const QCommandLineParser &parser, const QString &action, ShopService *service)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        CommandLine::usageError(QStringLiteral("shops %1 needs exactly one SHOP (its id or its name)").arg(action));
        return std::nullopt;
    }
    bool isNumber = false;
    const qint64 id = positional.constFirst().toLongLong(&isNumber);
    if (isNumber && id > 0)
        return service->show(id).id; // 404 shop_not_found when it is not a shop
    return service->idByName(positional.constFirst());
}

void addShopArgument(QCommandLineParser &parser)
{
    parser.addPositionalArgument(QStringLiteral("SHOP"), QStringLiteral("The shop's id or its name."));
}

QString orDash(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("-") : text;
}

QString istTime(const QDateTime &instant)
{
    return instant.isValid() ? IstTime::format(instant).left(16) : QStringLiteral("never");
}

QString successRate(const Shop::Today &today)
{
    const std::optional<double> rate = today.successRate();
    return rate ? QString::number(*rate, 'f', 1) + QLatin1Char('%') : QStringLiteral("-");
}

/// The shop's lines as `show`, `topup`, `limit`, `suspend` and `resume` print them.
void printShop(const Shop &shop)
{
    CommandLine::out(QStringLiteral("shop %1: %2 (%3)").arg(shop.id).arg(shop.name, shop.state));
    CommandLine::out(QStringLiteral("  owner %1, mobile %2, circle %3, GSTIN %4")
                         .arg(orDash(shop.owner), orDash(shop.mobile), orDash(shop.circleCode), orDash(shop.gstin)));
    if (shop.isSuspended())
        CommandLine::out(QStringLiteral("  suspended %1: %2").arg(istTime(shop.suspendedAt), shop.suspendedReason));
    CommandLine::out(
        QStringLiteral("  balance %1, credit limit %2, available %3")
            .arg(Money::format(shop.balance), Money::format(shop.creditLimit), Money::format(shop.available())));
    CommandLine::out(QStringLiteral("  today: %1 sales, %2 success, %3 failed, %4 pending, success rate %5, sold %6")
                         .arg(shop.today.sales)
                         .arg(shop.today.success)
                         .arg(shop.today.failed)
                         .arg(shop.today.pending)
                         .arg(successRate(shop.today), Money::format(shop.today.sold)));
    CommandLine::out(
        QStringLiteral("  last contact %1, added %2").arg(istTime(shop.lastContactAt), istTime(shop.createdAt)));
}

/// The API address the shop's connect lines name: --public-url with /api/v1 added, as `serve --public-url`.
QString baseUrl(const QCommandLineParser &parser)
{
    QString url = parser.value(QStringLiteral("public-url")).trimmed();
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    if (!url.isEmpty() && !url.endsWith(QLatin1String("/api/v1")))
        url += QStringLiteral("/api/v1");
    return url;
}

int addShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Adds a shop: its account, wallets and a live pos key, whose secret is printed once together "
                       "with the lines the shop runs to connect."));
    parser.addOption({QStringLiteral("name"), QStringLiteral("The shop's name (2 to 60 characters, unique)."),
                      QStringLiteral("NAME")});
    parser.addOption(
        {QStringLiteral("owner"), QStringLiteral("Who runs it (1 to 80 characters)."), QStringLiteral("NAME")});
    parser.addOption(
        {QStringLiteral("mobile"), QStringLiteral("The owner's mobile number (10 digits)."), QStringLiteral("NUMBER")});
    parser.addOption({QStringLiteral("circle"), QStringLiteral("The shop's telecom circle code, e.g. MH or DL."),
                      QStringLiteral("CODE")});
    parser.addOption({QStringLiteral("gstin"), QStringLiteral("The shop's GSTIN (optional; 15 characters, checked)."),
                      QStringLiteral("GSTIN")});
    parser.addOption({QStringLiteral("credit-limit"),
                      QStringLiteral("How far below zero its live wallet may go, whole rupees (default 0)."),
                      QStringLiteral("RUPEES")});
    parser.addOption({QStringLiteral("public-url"),
                      QStringLiteral("This server's address as the shop reaches it, e.g. https://dist.example.in:8443, "
                                     "for the connect lines (default: a placeholder to fill in)."),
                      QStringLiteral("URL")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    for (const char *required : {"name", "owner", "mobile", "circle"}) {
        if (parser.value(QLatin1String(required)).trimmed().isEmpty())
            return CommandLine::usageError(
                QStringLiteral("shops add needs --name NAME --owner NAME --mobile NUMBER --circle CODE (missing --%1)")
                    .arg(QLatin1String(required)));
    }
    NewShop shop{parser.value(QStringLiteral("name")),   parser.value(QStringLiteral("owner")),
                 parser.value(QStringLiteral("mobile")), parser.value(QStringLiteral("circle")),
                 parser.value(QStringLiteral("gstin")),  0};
    if (parser.isSet(QStringLiteral("credit-limit"))) {
        const std::optional<Paise> limit = wholeRupees(parser.value(QStringLiteral("credit-limit")));
        if (!limit)
            return CommandLine::usageError(QStringLiteral("--credit-limit must be whole rupees, e.g. 5000"));
        shop.creditLimit = *limit;
    }
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const AddedShop added = store->service->add(shop, actor(), baseUrl(parser));
        printShop(added.shop);
        CommandLine::out(QStringLiteral("Its live pos key (the secret is shown this once):"));
        CommandLine::out(QStringLiteral("key_id: ") + added.key.key.keyId);
        CommandLine::out(QStringLiteral("key_secret: ") + added.key.secret);
        CommandLine::out(QStringLiteral("The shop connects by running, on its server:"));
        for (const QString &line : added.key.connect)
            CommandLine::out(QStringLiteral("  ") + line);
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

int listShops(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Lists the shops with their live balance, credit limit, today's sales and last contact."));
    parser.addOption({QStringLiteral("search"),
                      QStringLiteral("Only shops whose name, owner, mobile or GSTIN "
                                     "contains TEXT (any case)."),
                      QStringLiteral("TEXT")});
    parser.addOption(
        {QStringLiteral("state"), QStringLiteral("Only active or only suspended shops."), QStringLiteral("STATE")});
    parser.addOption({QStringLiteral("sort"),
                      QStringLiteral("name (default), balance, sales, success_rate, last_contact or state."),
                      QStringLiteral("FIELD")});
    parser.addOption({QStringLiteral("desc"), QStringLiteral("Largest (or latest, or Z) first.")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    ShopListQuery query;
    query.search = parser.value(QStringLiteral("search")).trimmed();
    query.state = parser.value(QStringLiteral("state")).trimmed();
    if (parser.isSet(QStringLiteral("sort")))
        query.sort = parser.value(QStringLiteral("sort")).trimmed();
    query.descending = parser.isSet(QStringLiteral("desc"));
    query.limit = ShopService::kMaxListLimit;
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        QList<Shop> shops;
        for (;;) {
            const Page<Shop> page = store->service->list(query);
            shops += page.items;
            if (page.isLast())
                break;
            query.offset += page.items.size();
        }
        const QString row = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9");
        CommandLine::out(row.arg(QStringLiteral("ID"), 6)
                             .arg(QStringLiteral("NAME"), -24)
                             .arg(QStringLiteral("OWNER"), -18)
                             .arg(QStringLiteral("BALANCE"), 14)
                             .arg(QStringLiteral("CREDIT"), 12)
                             .arg(QStringLiteral("TODAY"), 6)
                             .arg(QStringLiteral("OK%"), 6)
                             .arg(QStringLiteral("LAST CONTACT"), -16)
                             .arg(QStringLiteral("STATE")));
        for (const Shop &shop : shops)
            CommandLine::out(row.arg(QString::number(shop.id), 6)
                                 .arg(shop.name, -24)
                                 .arg(orDash(shop.owner), -18)
                                 .arg(Money::format(shop.balance), 14)
                                 .arg(Money::format(shop.creditLimit), 12)
                                 .arg(QString::number(shop.today.sales), 6)
                                 .arg(successRate(shop.today), 6)
                                 .arg(istTime(shop.lastContactAt), -16)
                                 .arg(shop.state));
        CommandLine::out(QStringLiteral("shops: %1 (TODAY: today's sales; OK%: their success rate)").arg(shops.size()));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

int showShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Shows one shop: its details, wallet, today's sales, margins and "
                                                    "keys (never their secrets)."));
    addShopArgument(parser);
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("shops show needs exactly one SHOP (its id or its name)"));
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const std::optional<qint64> id = shopArgument(parser, QStringLiteral("show"), &*store->service);
        const ShopDetail detail = store->service->detail(*id);
        printShop(detail.shop);
        QStringList margins;
        for (auto it = detail.discountBasisPoints.cbegin(); it != detail.discountBasisPoints.cend(); ++it)
            margins.append(QStringLiteral("%1 %2").arg(it.key(), Money::formatRate(it.value())));
        CommandLine::out(QStringLiteral("  margins: ") + margins.join(QStringLiteral(", ")));
        CommandLine::out(QStringLiteral("  keys:"));
        for (const ApiKey &key : detail.keys)
            CommandLine::out(QStringLiteral("    %1 %2 %3 %4 %5")
                                 .arg(key.keyId, -20)
                                 .arg(key.mode, -4)
                                 .arg(key.scope, -5)
                                 .arg(key.isRevoked() ? QStringLiteral("revoked") : QStringLiteral("active"), -7)
                                 .arg(key.name));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

int topupShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Credits a shop's live wallet with what it paid you; a ledger row with how it paid, the "
                       "reference and who recorded it."));
    addShopArgument(parser);
    parser.addOption({QStringLiteral("amount"), QStringLiteral("Whole rupees, e.g. 5000."), QStringLiteral("RUPEES")});
    parser.addOption(
        {QStringLiteral("method"), QStringLiteral("How the shop paid: cash, upi or bank."), QStringLiteral("METHOD")});
    parser.addOption({QStringLiteral("reference"),
                      QStringLiteral("The payment's reference (UTR); required for upi and bank."),
                      QStringLiteral("REF")});
    parser.addOption(
        {QStringLiteral("note"), QStringLiteral("Anything else (kept in the ledger)."), QStringLiteral("TEXT")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("shops topup needs exactly one SHOP (its id or its name)"));
    const std::optional<Paise> amount = wholeRupees(parser.value(QStringLiteral("amount")));
    if (!amount || *amount <= 0)
        return CommandLine::usageError(QStringLiteral("shops topup needs --amount RUPEES, whole rupees such as 5000"));
    if (!parser.isSet(QStringLiteral("method")))
        return CommandLine::usageError(QStringLiteral("shops topup needs --method cash, upi or bank"));
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const std::optional<qint64> id = shopArgument(parser, QStringLiteral("topup"), &*store->service);
        const Shop shop = store->service->topup(*id,
                                                ShopTopup{*amount, parser.value(QStringLiteral("method")).trimmed(),
                                                          parser.value(QStringLiteral("reference")),
                                                          parser.value(QStringLiteral("note"))},
                                                actor());
        CommandLine::out(QStringLiteral("%1's live wallet credited %2; balance %3")
                             .arg(shop.name, Money::format(*amount), Money::format(shop.balance)));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

int limitShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Sets a shop's credit limit: how far below zero its live wallet may go (0 for none)."));
    addShopArgument(parser);
    parser.addOption({QStringLiteral("rupees"), QStringLiteral("Whole rupees, 0 to 1000000."), QStringLiteral("N")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("shops limit needs exactly one SHOP (its id or its name)"));
    const std::optional<Paise> limit = wholeRupees(parser.value(QStringLiteral("rupees")));
    if (!limit)
        return CommandLine::usageError(QStringLiteral("shops limit needs --rupees N, whole rupees such as 10000"));
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const std::optional<qint64> id = shopArgument(parser, QStringLiteral("limit"), &*store->service);
        const Shop shop = store->service->setCreditLimit(*id, *limit, actor());
        CommandLine::out(QStringLiteral("%1's credit limit is %2; available %3")
                             .arg(shop.name, Money::format(shop.creditLimit), Money::format(shop.available())));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

int suspendShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Suspends a shop: its keys answer 403 account_suspended (it can still read its sales and "
                       "wallet and send fund requests); its pending sales still settle."));
    addShopArgument(parser);
    parser.addOption({QStringLiteral("reason"), QStringLiteral("Why (1 to 200 characters; the audit log keeps it)."),
                      QStringLiteral("TEXT")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("shops suspend needs exactly one SHOP (its id or its name)"));
    if (parser.value(QStringLiteral("reason")).trimmed().isEmpty())
        return CommandLine::usageError(QStringLiteral("shops suspend needs --reason TEXT saying why"));
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const std::optional<qint64> id = shopArgument(parser, QStringLiteral("suspend"), &*store->service);
        const Shop shop = store->service->suspend(*id, parser.value(QStringLiteral("reason")), actor());
        CommandLine::out(QStringLiteral("%1 is suspended: %2").arg(shop.name, shop.suspendedReason));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

int resumeShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Resumes a suspended shop: its keys work again."));
    addShopArgument(parser);
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("shops resume needs exactly one SHOP (its id or its name)"));
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const std::optional<qint64> id = shopArgument(parser, QStringLiteral("resume"), &*store->service);
        const Shop shop = store->service->resume(*id, actor());
        CommandLine::out(QStringLiteral("%1 is active again").arg(shop.name));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

/// A YYYY-MM-DD option; prints a usage error and returns an invalid date when it is not one.
QDate dateOption(const QCommandLineParser &parser, const QString &name)
{
    const QDate date = QDate::fromString(parser.value(name).trimmed(), Qt::ISODate);
    if (!date.isValid())
        CommandLine::usageError(QStringLiteral("shops statement needs --%1 YYYY-MM-DD").arg(name));
    return date;
}

void printStatementLine(const QString &when, const QString &kind, const QString &amount, const QString &balance,
                        const QString &what)
{
    CommandLine::out(
        QStringLiteral("%1  %2 %3 %4  %5").arg(when, -16).arg(kind, -12).arg(amount, 13).arg(balance, 13).arg(what));
}

int statementOfShop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Prints a shop's live statement for IST days FROM to TO: the opening balance, every top-up, "
                       "sale, refund and reversal with the running balance, the totals and the closing balance."));
    addShopArgument(parser);
    parser.addOption(
        {QStringLiteral("from"), QStringLiteral("The first day, YYYY-MM-DD (IST)."), QStringLiteral("DATE")});
    parser.addOption({QStringLiteral("to"), QStringLiteral("The last day, YYYY-MM-DD (IST), at most 366 days on."),
                      QStringLiteral("DATE")});
    parser.addOption({QStringLiteral("csv"),
                      QStringLiteral("Writes the statement to FILE as CSV instead (a header row, the opening row "
                                     "first and the closing row last)."),
                      QStringLiteral("FILE")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("shops statement needs exactly one SHOP (its id or its name)"));
    const QDate from = dateOption(parser, QStringLiteral("from"));
    if (!from.isValid())
        return 2;
    const QDate to = dateOption(parser, QStringLiteral("to"));
    if (!to.isValid())
        return 2;
    const std::unique_ptr<ShopsStore> store = openStore(parser);
    if (!store)
        return 1;
    try {
        const std::optional<qint64> id = shopArgument(parser, QStringLiteral("statement"), &*store->service);
        ShopStatement statement = store->service->statement(*id, from, to, ShopService::kMaxStatementLimit, 0);
        if (parser.isSet(QStringLiteral("csv"))) {
            const QByteArray csv = store->service->statementCsv(*id, from, to);
            QSaveFile file(parser.value(QStringLiteral("csv")));
            if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit()) {
                std::fprintf(stderr, "rechargedesk: cannot write %s: %s\n", qPrintable(file.fileName()),
                             qPrintable(file.errorString()));
                return 1;
            }
            CommandLine::out(
                QStringLiteral("%1's statement %2 to %3 (%4 lines) written to %5; opening %6, closing %7")
                    .arg(statement.name, from.toString(Qt::ISODate), to.toString(Qt::ISODate))
                    .arg(statement.lineCount)
                    .arg(file.fileName(), Money::format(statement.opening), Money::format(statement.closing)));
            return 0;
        }
        CommandLine::out(
            QStringLiteral("Statement of %1 (shop %2), owner %3, mobile %4%5")
                .arg(statement.name)
                .arg(statement.shopId)
                .arg(orDash(statement.owner), orDash(statement.mobile),
                     statement.gstin.isEmpty() ? QString() : QStringLiteral(", GSTIN ") + statement.gstin));
        CommandLine::out(QStringLiteral("From %1 to %2 (IST), live wallet")
                             .arg(from.toString(Qt::ISODate), to.toString(Qt::ISODate)));
        printStatementLine(QStringLiteral("WHEN"), QStringLiteral("KIND"), QStringLiteral("AMOUNT"),
                           QStringLiteral("BALANCE"), QStringLiteral("DETAILS"));
        printStatementLine(from.toString(Qt::ISODate), QStringLiteral("opening"), QString(),
                           Money::format(statement.opening), QString());
        for (;;) {
            for (const ShopStatement::Line &line : std::as_const(statement.lines)) {
                QStringList what;
                if (line.transactionId > 0)
                    what.append(
                        QStringLiteral("sale %1 %2 %3").arg(line.transactionId).arg(line.operatorCode, line.number));
                if (!line.reference.isEmpty() && !line.note.contains(line.reference))
                    what.append(QStringLiteral("ref ") + line.reference);
                if (!line.note.isEmpty())
                    what.append(line.note);
                if (!line.actor.isEmpty())
                    what.append(QStringLiteral("by ") + line.actor);
                printStatementLine(istTime(line.at), line.kind, Money::format(line.amount), Money::format(line.balance),
                                   what.join(QStringLiteral("; ")));
            }
            if (statement.nextCursor.isEmpty())
                break;
            statement = store->service->statement(*id, from, to, ShopService::kMaxStatementLimit,
                                                  statement.nextCursor.toLongLong());
        }
        printStatementLine(to.toString(Qt::ISODate), QStringLiteral("closing"), QString(),
                           Money::format(statement.closing), QString());
        const ShopStatement::Totals &t = statement.totals;
        CommandLine::out(QStringLiteral("Totals: top-ups %1, fund requests %2, sales %3, refunds %4, reversals %5, "
                                        "other %6; lines: %7")
                             .arg(Money::format(t.topups), Money::format(t.fundRequests), Money::format(t.sales),
                                  Money::format(t.refunds), Money::format(t.reversals), Money::format(t.other))
                             .arg(statement.lineCount));
        CommandLine::out(QStringLiteral("Opening %1, closing %2")
                             .arg(Money::format(statement.opening), Money::format(statement.closing)));
    } catch (const ApiError &e) {
        return refused(e);
    }
    return 0;
}

} // namespace

int runShops(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk shops ") + action} + arguments.mid(2);
    if (action == QLatin1String("add"))
        return addShop(rest);
    if (action == QLatin1String("list"))
        return listShops(rest);
    if (action == QLatin1String("show"))
        return showShop(rest);
    if (action == QLatin1String("topup"))
        return topupShop(rest);
    if (action == QLatin1String("limit"))
        return limitShop(rest);
    if (action == QLatin1String("suspend"))
        return suspendShop(rest);
    if (action == QLatin1String("resume"))
        return resumeShop(rest);
    if (action == QLatin1String("statement"))
        return statementOfShop(rest);
    const bool help = action == QLatin1String("--help") || action == QLatin1String("-h");
    if (help || action.isEmpty() || action.startsWith(QLatin1Char('-'))) { // no action, only options
        CommandLine::out(QStringLiteral("Usage: rechargedesk shops add|list|show|topup|limit|suspend|resume|statement "
                                        "[options]  (--help on each)"));
        return help ? 0 : 2;
    }
    return CommandLine::usageError(
        QStringLiteral("unknown shops action \"%1\"; use add, list, show, topup, limit, suspend, resume or statement")
            .arg(action));
}

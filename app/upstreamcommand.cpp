// `rechargedesk upstream set|show|check|clear`: the upstream live sales go through (issue 11), on
// the same database the server uses (the server reads it at every sale, so changes apply at once);
// `upstream reconcile`: its statement taken over (issue 26).
#include "aadhaar/aadhaarmodule.h"
#include "aadhaar/aadhaarvault.h"
#include "apierror.h"
#include "clock.h"
#include "commandline.h"
#include "operatorcatalog.h"
#include "services/commitbatcher.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "upstream/statementreconciler.h"
#include "upstream/upstreamdispatcher.h"
#include "upstream/upstreamsettingsrepository.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <functional>

namespace {

/// The database and the vault of the store options; prints why and returns false on failure.
struct UpstreamStore
{
    std::unique_ptr<Database> db;
    std::optional<AadhaarVault> vault;
};

std::optional<UpstreamStore> openStore(const QCommandLineParser &parser)
{
    UpstreamStore store;
    store.db = CommandLine::openDatabase(parser);
    if (!store.db)
        return std::nullopt;
    store.vault = CommandLine::openVault(parser);
    if (!store.vault)
        return std::nullopt;
    return store;
}

/// The --name option of the upstream subcommands.
QCommandLineOption nameOption()
{
    return {QStringLiteral("name"), QStringLiteral("Which upstream (default: default)."), QStringLiteral("NAME"),
            QStringLiteral("default")};
}

void printSettings(UpstreamSettingsRepository &repository, const QString &name)
{
    const std::optional<UpstreamSettings> s = repository.load(name);
    if (!s) {
        CommandLine::out(QStringLiteral("No upstream is configured under the name %1.").arg(name));
        CommandLine::out(QStringLiteral("Set one: rechargedesk upstream set --name %1 --url BASE_URL --credential-file "
                                        "FILE (or --key-id ID --key-secret-file FILE)")
                             .arg(name));
        return;
    }
    const UpstreamHealth h = repository.health(name);
    CommandLine::out(QStringLiteral("Upstream %1: %2").arg(name, s->baseUrl));
    CommandLine::out(
        QStringLiteral("  priority %1, %2; sells %3 for %4")
            .arg(s->priority)
            .arg(s->enabled ? QStringLiteral("enabled") : QStringLiteral("disabled"),
                 s->services.isEmpty() ? QStringLiteral("everything") : s->services.join(QLatin1Char(',')),
                 s->operators.isEmpty() ? QStringLiteral("every operator") : s->operators.join(QLatin1Char(','))));
    CommandLine::out(QStringLiteral("  its webhooks: POST %1")
                         .arg(name == QLatin1String("default") ? QStringLiteral("/hooks/upstream")
                                                               : QStringLiteral("/hooks/upstream/") + name));
    if (s->credential.isEmpty())
        CommandLine::out(QStringLiteral("  key_id: ") + s->keyId + QStringLiteral(" (secret stored sealed)"));
    else
        CommandLine::out(QStringLiteral("  credential: the aggregator's API key credential (stored sealed)"));
    if (s->kind() == QLatin1String("spec"))
        CommandLine::out(QStringLiteral("  kind: promises the API spec only (each sale sent once; no status check)"));
    else
        CommandLine::out(QStringLiteral("  kind: RechargeDesk (same reference_id is the same sale: %1; status check: "
                                        "%2; balance: %3)")
                             .arg(s->offers.idempotentReferenceId ? QStringLiteral("yes") : QStringLiteral("no"),
                                  s->offers.statusCheck ? QStringLiteral("yes") : QStringLiteral("no"),
                                  s->offers.balance ? QStringLiteral("yes") : QStringLiteral("no")));
    CommandLine::out(QStringLiteral("  webhook_password: %1, webhook secret: %2")
                         .arg(s->webhookPassword.isEmpty() ? QStringLiteral("not set") : QStringLiteral("set"),
                              s->webhookSecret.isEmpty() ? QStringLiteral("not set") : QStringLiteral("set")));
    QString state = h.state;
    if (h.sinceMs > 0 && h.state != QLatin1String("unknown"))
        state += QStringLiteral(" since %1 IST").arg(IstTime::formatMs(h.sinceMs));
    CommandLine::out(QStringLiteral("  state: ") + state);
    CommandLine::out(
        QStringLiteral("  last contact: ") +
        (h.lastContactMs > 0 ? IstTime::formatMs(h.lastContactMs) + QStringLiteral(" IST") : QStringLiteral("never")));
    if (!h.lastError.isEmpty())
        CommandLine::out(QStringLiteral("  last error: ") + h.lastError);
    CommandLine::out(QStringLiteral("  server id (reference_id rd-%1-<transaction_id>)").arg(repository.serverId()));
}

/// The settings `upstream set` was given: an opaque --credential-file, or --key-id and --key-secret-file; the
/// webhook password from --webhook-password or --webhook-password-file. Prints why and returns nullopt when the
/// options are wrong.
std::optional<UpstreamSettings> settingsFrom(const QCommandLineParser &parser)
{
    const bool opaque = parser.isSet(QStringLiteral("credential-file"));
    const bool keyPair = parser.isSet(QStringLiteral("key-id")) || parser.isSet(QStringLiteral("key-secret-file"));
    if (!parser.isSet(QStringLiteral("url")) || opaque == keyPair ||
        (keyPair && (!parser.isSet(QStringLiteral("key-id")) || !parser.isSet(QStringLiteral("key-secret-file"))))) {
        CommandLine::usageError(QStringLiteral("upstream set needs --url BASE_URL and either --credential-file FILE "
                                               "(the aggregator's API key credential) or --key-id ID "
                                               "--key-secret-file FILE (a RechargeDesk key)"));
        return std::nullopt;
    }
    const auto fileOption = [&parser](const char *name, const char *flag) -> std::optional<QString> {
        if (!parser.isSet(QLatin1String(name)))
            return QString();
        return CommandLine::readSecretFile(parser.value(QLatin1String(name)), flag);
    };
    if (parser.isSet(QStringLiteral("webhook-password")) && parser.isSet(QStringLiteral("webhook-password-file"))) {
        CommandLine::usageError(QStringLiteral("give --webhook-password or --webhook-password-file, not both"));
        return std::nullopt;
    }
    const std::optional<QString> webhookSecret = fileOption("webhook-secret-file", "--webhook-secret-file");
    std::optional<QString> webhookPassword = fileOption("webhook-password-file", "--webhook-password-file");
    const std::optional<QString> secret =
        fileOption(opaque ? "credential-file" : "key-secret-file", opaque ? "--credential-file" : "--key-secret-file");
    if (!webhookSecret || !webhookPassword || !secret)
        return std::nullopt;
    if (parser.isSet(QStringLiteral("webhook-password")))
        webhookPassword = parser.value(QStringLiteral("webhook-password"));
    try {
        const QString url = parser.value(QStringLiteral("url"));
        return opaque ? UpstreamSettings::checkedCredential(url, *secret, *webhookPassword, *webhookSecret)
                      : UpstreamSettings::checked(url, parser.value(QStringLiteral("key-id")), *secret,
                                                  *webhookPassword, *webhookSecret);
    } catch (const ApiError &e) {
        CommandLine::usageError(e.description());
        return std::nullopt;
    }
}

/// Runs `work` with a dispatcher on the store until it calls the quit function it is given (an event loop, so
/// that the dispatcher's calls to the upstream are answered).
void withDispatcher(UpstreamStore &store,
                    const std::function<void(UpstreamDispatcher &, const std::function<void()> &)> &work)
{
    SystemClock clock;
    SettlementService settlements(*store.db, clock);
    CommitBatcher batcher(*store.db);
    UpstreamDispatcher dispatcher(*store.db, batcher, clock, settlements, &*store.vault, UpstreamTiming{});
    QEventLoop loop;
    work(dispatcher, [&loop] { loop.quit(); });
    loop.exec();
}

int set(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Sets the upstream provider live sales go through: an aggregator with the API key credential "
                       "its dashboard shows (--credential-file), or a RechargeDesk distributor with a key pair. "
                       "Then reads what the upstream offers beyond the API spec."));
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("Upstream API address ending in /api/v1."), QStringLiteral("BASE_URL")});
    parser.addOption({QStringLiteral("credential-file"),
                      QStringLiteral("File holding the aggregator's API key credential, sent verbatim after "
                                     "\"Authorization: Basic \" (never argv)."),
                      QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("key-id"), QStringLiteral("Key id at a RechargeDesk upstream."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("key-secret-file"), QStringLiteral("File holding the key secret (never argv)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("webhook-password"),
                      QStringLiteral("data.webhook_password the upstream sends to /hooks/upstream."),
                      QStringLiteral("P")});
    parser.addOption({QStringLiteral("webhook-password-file"),
                      QStringLiteral("File holding that webhook password instead."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("webhook-secret-file"),
                      QStringLiteral("File holding the upstream's Standard Webhooks secret (whsec_...)."),
                      QStringLiteral("FILE")});
    parser.addOption(nameOption());
    parser.addOption({QStringLiteral("priority"),
                      QStringLiteral("Live sales try upstreams by priority, lowest first (0-1000, default 100)."),
                      QStringLiteral("N"), QStringLiteral("100")});
    parser.addOption(
        {QStringLiteral("services"),
         QStringLiteral("What it sells, comma-separated: mobile,dth,voucher,aadhaar,plans (default: all)."),
         QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("operators"),
                      QStringLiteral("Operator codes it sells, comma-separated, e.g. AT,RJ,TS (default: all)."),
                      QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("disabled"), QStringLiteral("Keep it configured but send it nothing.")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    std::optional<UpstreamSettings> settings = settingsFrom(parser);
    if (!settings)
        return 2;
    bool ok = false;
    const int priority = parser.value(QStringLiteral("priority")).toInt(&ok);
    const auto listOf = [&parser](const char *option) {
        return parser.value(QLatin1String(option)).split(QLatin1Char(','), Qt::SkipEmptyParts);
    };
    try {
        settings->setRouting(parser.value(QStringLiteral("name")), ok ? priority : -1, listOf("services"),
                             listOf("operators"), !parser.isSet(QStringLiteral("disabled")),
                             OperatorCatalog::builtIn());
    } catch (const ApiError &e) {
        return CommandLine::usageError(QStringLiteral("--%1: %2").arg(e.field(), e.description()));
    }
    std::optional<UpstreamStore> store = openStore(parser);
    if (!store)
        return 1;
    UpstreamSettingsRepository repository(*store->db, &*store->vault);
    repository.save(*settings, SystemClock().nowMs());
    QString offers;
    withDispatcher(*store, [&](UpstreamDispatcher &dispatcher, const std::function<void()> &quit) {
        dispatcher.readOffers(*settings, [&offers, quit](const UpstreamOffersRead &read) {
            offers = read.message;
            quit();
        });
    });
    printSettings(repository, settings->name);
    CommandLine::out(offers);
    CommandLine::out(QStringLiteral("Try it: rechargedesk upstream check"));
    return 0;
}

/// A subcommand on one upstream, chosen with --name (default `default`), or on all of them (`named` false: no
/// --name): parses the store options and runs `action` on the database and vault with the name. Exit 1 when the
/// store cannot be opened, else what `action` returns.
int withUpstream(const QStringList &arguments, const QString &description, bool named,
                 const std::function<int(UpstreamStore &, UpstreamSettingsRepository &, const QString &)> &action)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description);
    if (named)
        parser.addOption(nameOption());
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    std::optional<UpstreamStore> store = openStore(parser);
    if (!store)
        return 1;
    UpstreamSettingsRepository repository(*store->db, &*store->vault);
    return action(*store, repository, named ? parser.value(QStringLiteral("name")) : QString());
}

int show(const QStringList &arguments)
{
    return withUpstream(arguments, QStringLiteral("Shows an upstream (never its secrets)."), true,
                        [](UpstreamStore &, UpstreamSettingsRepository &repository, const QString &name) {
                            printSettings(repository, name);
                            return 0;
                        });
}

int list(const QStringList &arguments)
{
    return withUpstream(arguments, QStringLiteral("Lists the upstreams in the order live sales try them."), false,
                        [](UpstreamStore &, UpstreamSettingsRepository &repository, const QString &) {
                            const QList<UpstreamSettings> upstreams = repository.list();
                            if (upstreams.isEmpty())
                                CommandLine::out(QStringLiteral("No upstream is configured: live sales answer 503 "
                                                                "no_live_provider."));
                            for (const UpstreamSettings &upstream : upstreams)
                                printSettings(repository, upstream.name);
                            return 0;
                        });
}

int clear(const QStringList &arguments)
{
    return withUpstream(
        arguments,
        QStringLiteral("Removes an upstream; its live sales go to the others, or are refused when none is left."), true,
        [](UpstreamStore &, UpstreamSettingsRepository &repository, const QString &name) {
            if (!repository.clear(name, SystemClock().nowMs())) {
                CommandLine::out(QStringLiteral("No upstream %1 is configured.").arg(name));
                return 1;
            }
            CommandLine::out(QStringLiteral("Upstream %1 removed.").arg(name));
            return 0;
        });
}

int check(const QStringList &arguments)
{
    return withUpstream(
        arguments,
        QStringLiteral("Makes one harmless authenticated call (a plans lookup), says whether URL and credential work "
                       "and reads what the upstream promises."),
        true, [](UpstreamStore &store, UpstreamSettingsRepository &repository, const QString &name) {
            const std::optional<UpstreamSettings> settings = repository.load(name);
            if (!settings) {
                CommandLine::out(
                    QStringLiteral("No upstream %1 is configured (rechargedesk upstream set ...).").arg(name));
                return 1;
            }
            bool ok = false;
            withDispatcher(store, [&](UpstreamDispatcher &dispatcher, const std::function<void()> &quit) {
                dispatcher.check(*settings, [&ok, quit](const UpstreamDispatcher::CheckResult &r) {
                    ok = r.ok;
                    CommandLine::out(r.message);
                    quit();
                });
            });
            return ok ? 0 : 1;
        });
}

/// Prints a statement run: its counts, then the lines for a person.
void printRun(const StatementRun &run)
{
    const StatementCounts &c = run.counts;
    CommandLine::out(QStringLiteral("Statement ") + run.fileName + QStringLiteral(" of the upstream ") + run.upstream +
                     QStringLiteral(": run %1, stored.").arg(run.id));
    CommandLine::out(QStringLiteral("  rows %1: matched %2 (settled %3, reversed %4, mismatched %5, unchanged %6), "
                                    "unknown %7, unreadable %8")
                         .arg(c.rows)
                         .arg(c.matched)
                         .arg(c.settled)
                         .arg(c.reversed)
                         .arg(c.mismatched)
                         .arg(c.unchanged)
                         .arg(c.unknown)
                         .arg(c.unreadable));
    if (run.linesTotal == 0) {
        CommandLine::out(QStringLiteral("Nothing needs a person."));
        return;
    }
    CommandLine::out(QStringLiteral("For a person (%1):").arg(run.linesTotal));
    for (const StatementLine &line : run.lines) {
        QString where = QStringLiteral("  line %1, %2").arg(line.row).arg(StatementLine::kindName(line.kind));
        if (!line.referenceId.isEmpty())
            where += QStringLiteral(", reference ") + line.referenceId;
        if (line.transactionId > 0)
            where += QStringLiteral(", transaction %1").arg(line.transactionId);
        CommandLine::out(where + QStringLiteral(": ") + line.description);
        CommandLine::out(QStringLiteral("    the statement: %1; here: %2")
                             .arg(line.statement, line.held.isEmpty() ? QStringLiteral("no sale") : line.held));
    }
    if (run.linesTotal > run.lines.size())
        CommandLine::out(QStringLiteral("  … and %1 more lines (only the first %2 are kept)")
                             .arg(run.linesTotal - run.lines.size())
                             .arg(StatementRun::kMaxLines));
}

/// `upstream reconcile --name NAME --statement FILE.csv [--columns ...]` (issue 26, "By the upstream's statement"):
/// the upstream's statement taken over row by row (StatementReconciler) on the server's database, also while it runs
/// (the running server sends the webhooks of what settled from the outbox); prints the counts and the lines for a
/// person. Exit 0 when the statement was read, 1 when it, the store or the upstream could not be, 2 for wrong options.
int reconcile(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Reconciles the upstream's statement (the CSV its dashboard exports: a header row, then one row "
                       "per sale) with the sales sent to it: a sale still waiting whose row is final settles once "
                       "(FAILED refunds once); FAILED for a sale held SUCCESS is a reversal (refunded once); SUCCESS "
                       "for a sale held FAILED, or another amount, is listed for a person and moves no money; rows of "
                       "no sale of ours are listed. Columns are found by their header names (reference id, status; "
                       "transaction id, amount, date when present); --columns maps others. Importing a statement "
                       "again changes nothing."));
    parser.addOption(nameOption());
    parser.addOption(
        {QStringLiteral("statement"), QStringLiteral("The statement, a CSV file (UTF-8)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("columns"),
                      QStringLiteral("Header names of columns not found by their usual names, e.g. "
                                     "\"reference_id=My Ref,status=State\" (fields: %1).")
                          .arg(UpstreamStatement::fieldNames().join(QStringLiteral(", "))),
                      QStringLiteral("FIELD=NAME,...")});
    parser.addOption(
        {QStringLiteral("by"), QStringLiteral("Who reconciles (default: the system user)."), QStringLiteral("NAME")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    const QString path = parser.value(QStringLiteral("statement"));
    if (path.isEmpty())
        return CommandLine::usageError(
            QStringLiteral("upstream reconcile needs --statement FILE.csv (and --name NAME for an upstream other than "
                           "default)"));
    QMap<QString, QString> columns;
    try {
        columns = UpstreamStatement::columnsFromText(parser.value(QStringLiteral("columns")));
    } catch (const ApiError &e) {
        return CommandLine::usageError(QStringLiteral("--columns: ") + e.description());
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "rechargedesk: cannot read %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
        return 1;
    }
    UpstreamStatement statement;
    try {
        statement = UpstreamStatement::parse(file.readAll(), columns);
    } catch (const ApiError &e) {
        std::fprintf(stderr, "rechargedesk: %s: %s\n", qPrintable(path), qPrintable(e.description()));
        return 1;
    }
    std::optional<UpstreamStore> store = openStore(parser);
    if (!store)
        return 1;
    const QString name = parser.value(QStringLiteral("name"));
    const QString by = parser.value(QStringLiteral("by")).trimmed();
    const QString actor =
        QStringLiteral("cli:") + (by.isEmpty() ? qEnvironmentVariable("USER", QStringLiteral("unknown")) : by);
    int status = 1;
    withDispatcher(*store, [&](UpstreamDispatcher &dispatcher, const std::function<void()> &quit) {
        // In the loop, so that quit() ends it (a quit before exec() would be lost).
        QTimer::singleShot(0, &dispatcher, [&, quit] {
            try {
                if (!dispatcher.hasUpstream(name)) {
                    std::fprintf(stderr, "rechargedesk: no upstream %s is configured (rechargedesk upstream list)\n",
                                 qPrintable(name));
                } else {
                    SystemClock clock;
                    printRun(StatementReconciler(*store->db, dispatcher, clock)
                                 .reconcile(name, statement, QFileInfo(path).fileName(), actor));
                    status = 0;
                }
            } catch (const std::exception &e) {
                std::fprintf(stderr, "rechargedesk: the statement could not be reconciled: %s\n", e.what());
            }
            quit();
        });
    });
    return status;
}

} // namespace

int runUpstream(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk upstream ") + action} + arguments.mid(2);
    if (action == QLatin1String("set"))
        return set(rest);
    if (action == QLatin1String("show"))
        return show(rest);
    if (action == QLatin1String("list"))
        return list(rest);
    if (action == QLatin1String("check"))
        return check(rest);
    if (action == QLatin1String("clear"))
        return clear(rest);
    if (action == QLatin1String("reconcile"))
        return reconcile(rest);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(QStringLiteral(
            "Usage: rechargedesk upstream set|list|show|check|clear|reconcile [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(
        QStringLiteral("unknown upstream action \"%1\"; use set, list, show, check, clear or reconcile").arg(action));
}

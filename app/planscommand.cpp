#include "clock.h"
#include "commandline.h"
#include "operatorcatalog.h"
#include "plans/plancatalogue.h"
#include "plans/plancataloguestore.h"
#include "plans/plansync.h"
#include "store/database.h"
#include "upstream/upstreamsettingsrepository.h"

#include <QEventLoop>
#include <QFile>

#include <cstdio>

namespace {

/// Reads FILE for import/check; prints the problem and returns nullopt when it cannot.
std::optional<QByteArray> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "rechargedesk: %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
        return std::nullopt;
    }
    if (file.size() > PlanCatalogue::kMaxFileBytes) {
        std::fprintf(stderr, "rechargedesk: %s: larger than %lld bytes\n", qPrintable(path),
                     static_cast<long long>(PlanCatalogue::kMaxFileBytes));
        return std::nullopt;
    }
    return file.readAll();
}

QString summary(const PlanCatalogue &catalogue)
{
    return QStringLiteral("plan catalogue %1: %2 plans in %3 operator-circle pairs")
        .arg(catalogue.version())
        .arg(catalogue.planCount())
        .arg(catalogue.pairCount());
}

int importOrCheck(const QStringList &arguments, bool install)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        install ? QStringLiteral("Validates a prepaid plan catalogue file as a whole and installs it as "
                                 "<data dir>/plans/catalogue.json; a running server picks it up. A bad file "
                                 "changes nothing.")
                : QStringLiteral("Validates a prepaid plan catalogue file without installing it."));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("Catalogue JSON (format: resources/plans/SOURCES.md)."));
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("give exactly one catalogue FILE"));
    const QString path = parser.positionalArguments().constFirst();
    const std::optional<QByteArray> json = readFile(path);
    if (!json)
        return 1;
    const OperatorCatalog operators = OperatorCatalog::builtIn();
    QString error;
    std::shared_ptr<const PlanCatalogue> catalogue;
    if (install) {
        catalogue = PlanCatalogueStore::importFile(CommandLine::dataDir(parser), *json, operators, &error);
    } else {
        PlanCatalogueError parseError;
        catalogue = PlanCatalogue::fromJson(*json, operators, &parseError);
        error = parseError.toString();
    }
    if (!catalogue) {
        std::fprintf(stderr, "rechargedesk: %s: %s\n", qPrintable(path), qPrintable(error));
        return 1;
    }
    CommandLine::out(
        install ? QStringLiteral("Installed %1 as %2")
                      .arg(summary(*catalogue), PlanCatalogueStore::catalogueFile(CommandLine::dataDir(parser)))
                : QStringLiteral("Valid %1").arg(summary(*catalogue)));
    return 0;
}

/// `plans sync`: copies the configured upstream's plans into <data dir>/plans/catalogue.json and publishes
/// them in the database (every server on it serves them within seconds). A pair that fails keeps the plans it had
/// while the others are installed. Exit 0 when every pair synced, 1 otherwise.
int sync(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Fetches the plans of every operator and circle from the configured upstream (endpoint 4, "
                       "with If-None-Match), validates them and installs them as the catalogue. A pair that fails "
                       "keeps the plans it had; the others are installed."));
    CommandLine::addStoreOptions(parser);
    parser.addOption({QStringLiteral("gap-ms"), QStringLiteral("Pause between two requests (default 250)."),
                      QStringLiteral("N"), QStringLiteral("250")});
    CommandLine::process(parser, arguments);
    bool ok = false;
    const int gapMs = parser.value(QStringLiteral("gap-ms")).toInt(&ok);
    if (!ok || gapMs < 0 || gapMs > 60'000)
        return CommandLine::usageError(QStringLiteral("--gap-ms must be a whole number from 0 to 60000"));
    const std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    const std::optional<AadhaarVault> vault = CommandLine::openVault(parser);
    if (!vault)
        return 1;
    const std::optional<UpstreamSettings> upstream =
        UpstreamSettingsRepository(*db, &*vault).forService(QStringLiteral("plans"));
    if (!upstream) {
        std::fprintf(stderr, "rechargedesk: no upstream offering plans is configured (rechargedesk upstream set)\n");
        return 1;
    }
    const OperatorCatalog operators = OperatorCatalog::builtIn();
    const SystemClock clock;
    PlanCatalogueStore store(operators, CommandLine::dataDir(parser), clock, db.get()); // published to all servers
    PlanSync planSync(operators, store, clock, PlanSyncOptions{.gapMs = gapMs});
    PlanSyncReport report;
    QEventLoop loop;
    QObject::connect(&planSync, &PlanSync::finished, &loop, [&](const PlanSyncReport &done) {
        report = done;
        loop.quit();
    });
    planSync.start(*upstream);
    loop.exec();

    CommandLine::out(QStringLiteral("Plans from %1: %2 pairs updated, %3 unchanged, %4 failed (%5 requests)")
                         .arg(upstream->baseUrl)
                         .arg(report.count(PlanSyncReport::Outcome::Updated))
                         .arg(report.count(PlanSyncReport::Outcome::Unchanged))
                         .arg(report.count(PlanSyncReport::Outcome::Failed))
                         .arg(report.requests));
    for (const QString &failure : report.failures())
        CommandLine::out(QStringLiteral("  failed ") + failure);
    if (!report.installed) {
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(report.error));
        return 1;
    }
    CommandLine::out(
        QStringLiteral("Installed %1 as %2")
            .arg(summary(*store.current()), PlanCatalogueStore::catalogueFile(CommandLine::dataDir(parser))));
    if (!report.error.isEmpty()) { // pairs that failed kept their plans: a person should look
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(report.error));
        return 1;
    }
    return 0;
}

} // namespace

int runPlans(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk plans ") + action} + arguments.mid(2);
    if (action == QLatin1String("import"))
        return importOrCheck(rest, true);
    if (action == QLatin1String("check"))
        return importOrCheck(rest, false);
    if (action == QLatin1String("sync"))
        return sync(rest);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(
            QStringLiteral("Usage: rechargedesk plans import|check FILE | sync [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(
        QStringLiteral("unknown plans action \"%1\"; use import, check or sync").arg(action));
}

#include "commandline.h"
#include "operatorcatalog.h"
#include "plans/plancatalogue.h"
#include "plans/plancataloguestore.h"

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

} // namespace

int runPlans(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk plans ") + action} + arguments.mid(2);
    if (action == QLatin1String("import"))
        return importOrCheck(rest, true);
    if (action == QLatin1String("check"))
        return importOrCheck(rest, false);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(QStringLiteral("Usage: rechargedesk plans import|check FILE [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(QStringLiteral("unknown plans action \"%1\"; use import or check").arg(action));
}

#include "plancataloguestore.h"

#include "apierror.h"
#include "clock.h"
#include "operatorcatalog.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>

Q_LOGGING_CATEGORY(lcPlans, "rechargedesk.plans")

namespace {

constexpr int kReloadDelayMs = 100;

QString plansDir(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("plans"));
}

/// Reads a catalogue file of at most PlanCatalogue::kMaxFileBytes; nullopt with *error otherwise.
std::optional<QByteArray> readCatalogueFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return std::nullopt;
    }
    if (file.size() > PlanCatalogue::kMaxFileBytes) {
        *error = QStringLiteral("larger than %1 bytes").arg(PlanCatalogue::kMaxFileBytes);
        return std::nullopt;
    }
    return file.readAll();
}

/// The origin of a catalogue file that does not name one: imported, dated by the file.
PlanCatalogueOrigin importedOrigin(const QString &path)
{
    return PlanCatalogueOrigin{QStringLiteral("imported"), QString(), QFileInfo(path).lastModified().toUTC()};
}

bool writeAtomically(const QString &dataDir, const QByteArray &json, QString *error)
{
    if (!QDir().mkpath(plansDir(dataDir))) {
        *error = QStringLiteral("cannot create %1").arg(plansDir(dataDir));
        return false;
    }
    QSaveFile file(PlanCatalogueStore::catalogueFile(dataDir));
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return true;
}

} // namespace

PlanCatalogueStore::PlanCatalogueStore(const OperatorCatalog &operators, const QString &dataDir, const Clock &clock,
                                       QObject *parent)
    : QObject(parent), m_operators(operators), m_dataDir(dataDir), m_clock(clock)
{
    std::shared_ptr<const PlanCatalogue> initial;
    if (!m_dataDir.isEmpty()) {
        const QString path = catalogueFile(m_dataDir);
        if (QFileInfo::exists(path)) {
            QString readError;
            const std::optional<QByteArray> json = readCatalogueFile(path, &readError);
            PlanCatalogueError error;
            if (json)
                initial = PlanCatalogue::fromJson(*json, m_operators, &error, importedOrigin(path));
            if (initial)
                qCInfo(lcPlans, "plan catalogue %s loaded from %s", qPrintable(initial->version()), qPrintable(path));
            else
                qCWarning(lcPlans, "ignoring %s (using the built-in catalogue): %s", qPrintable(path),
                          qPrintable(json ? error.toString() : readError));
        }
        QDir().mkpath(plansDir(m_dataDir));
        m_watcher.addPath(plansDir(m_dataDir));
        m_reloadTimer.setSingleShot(true);
        m_reloadTimer.setInterval(kReloadDelayMs);
        connect(&m_watcher, &QFileSystemWatcher::directoryChanged, &m_reloadTimer, qOverload<>(&QTimer::start));
        connect(&m_reloadTimer, &QTimer::timeout, this, &PlanCatalogueStore::reloadFromDisk);
    }
    m_current.store(initial ? initial : PlanCatalogue::builtIn(m_operators));
}

PlanCatalogueStore::~PlanCatalogueStore() = default;

QString PlanCatalogueStore::catalogueFile(const QString &dataDir)
{
    return QDir(plansDir(dataDir)).filePath(QStringLiteral("catalogue.json"));
}

std::shared_ptr<const PlanCatalogue> PlanCatalogueStore::install(const QByteArray &json)
{
    PlanCatalogueError error;
    std::shared_ptr<const PlanCatalogue> catalogue = PlanCatalogue::fromJson(
        json, m_operators, &error, PlanCatalogueOrigin{QStringLiteral("imported"), QString(), m_clock.nowUtc()});
    if (!catalogue)
        throw ApiError::badRequest(error.path, QStringLiteral("invalid_catalogue"),
                                   QStringLiteral("the catalogue is invalid: ") + error.toString());
    if (m_dataDir.isEmpty())
        throw ApiError::conflict(QStringLiteral("no_data_directory"),
                                 QStringLiteral("this server has no data directory to keep an imported catalogue in"));
    QString writeError;
    if (!writeAtomically(m_dataDir, json, &writeError)) {
        qCCritical(lcPlans, "catalogue import failed: %s", qPrintable(writeError));
        throw std::runtime_error("catalogue file could not be written");
    }
    m_current.store(catalogue);
    qCInfo(lcPlans, "plan catalogue %s installed (%d plans)", qPrintable(catalogue->version()), catalogue->planCount());
    Q_EMIT catalogueChanged();
    return catalogue;
}

std::shared_ptr<const PlanCatalogue> PlanCatalogueStore::importFile(const QString &dataDir, const QByteArray &json,
                                                                    const OperatorCatalog &operators, QString *error)
{
    PlanCatalogueError parseError;
    std::shared_ptr<const PlanCatalogue> catalogue = PlanCatalogue::fromJson(json, operators, &parseError);
    if (!catalogue) {
        *error = parseError.toString();
        return nullptr;
    }
    if (!writeAtomically(dataDir, json, error))
        return nullptr;
    return catalogue;
}

void PlanCatalogueStore::reloadFromDisk()
{
    // The watch ends if the directory is removed and re-created; keep it.
    if (m_watcher.directories().isEmpty() && QFileInfo::exists(plansDir(m_dataDir)))
        m_watcher.addPath(plansDir(m_dataDir));
    const QString path = catalogueFile(m_dataDir);
    if (!QFileInfo::exists(path))
        return; // a removed file keeps the catalogue in force; the next start uses the built-in one
    QString readError;
    const std::optional<QByteArray> json = readCatalogueFile(path, &readError);
    if (!json) {
        qCWarning(lcPlans, "ignoring changed %s: %s", qPrintable(path), qPrintable(readError));
        Q_EMIT catalogueRejected(path + QStringLiteral(": ") + readError);
        return;
    }
    if (QCryptographicHash::hash(*json, QCryptographicHash::Sha256).toHex() == current()->sourceSha256())
        return; // our own install(), or a touch without a change
    PlanCatalogueError error;
    std::shared_ptr<const PlanCatalogue> catalogue =
        PlanCatalogue::fromJson(*json, m_operators, &error, importedOrigin(path));
    if (!catalogue) {
        qCWarning(lcPlans, "ignoring changed %s (keeping catalogue %s): %s", qPrintable(path),
                  qPrintable(current()->version()), qPrintable(error.toString()));
        Q_EMIT catalogueRejected(path + QStringLiteral(": ") + error.toString());
        return;
    }
    m_current.store(catalogue);
    qCInfo(lcPlans, "plan catalogue %s loaded from changed %s (%d plans)", qPrintable(catalogue->version()),
           qPrintable(path), catalogue->planCount());
    Q_EMIT catalogueChanged();
}

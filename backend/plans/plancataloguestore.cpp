#include "plancataloguestore.h"

#include "apierror.h"
#include "clock.h"
#include "operatorcatalog.h"
#include "plancataloguerepository.h"
#include "store/database.h"

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
                                       Database *db, QObject *parent)
    : QObject(parent), m_operators(operators), m_dataDir(dataDir), m_clock(clock), m_db(db)
{
    std::shared_ptr<const PlanCatalogue> initial;
    std::optional<QByteArray> json;
    qint64 fileModifiedMs = 0;
    if (!m_dataDir.isEmpty()) {
        const QString path = catalogueFile(m_dataDir);
        if (QFileInfo::exists(path)) {
            QString readError;
            json = readCatalogueFile(path, &readError);
            fileModifiedMs = QFileInfo(path).lastModified().toMSecsSinceEpoch();
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
    if (m_db) {
        if (auto published = startFromDatabase(initial, initial ? *json : QByteArray(), fileModifiedMs))
            initial = std::move(published);
        m_pollTimer.setInterval(kPollMs);
        connect(&m_pollTimer, &QTimer::timeout, this, &PlanCatalogueStore::pollDatabase);
        m_pollTimer.start();
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
    publish(json, *catalogue); // first: on a storage error nothing changes
    QString writeError;
    if (!writeAtomically(m_dataDir, json, &writeError)) {
        qCCritical(lcPlans, "catalogue import failed: %s", qPrintable(writeError));
        m_publishedVersion = -1; // it is published: the next poll makes it current here too
        throw std::runtime_error("catalogue file could not be written");
    }
    qCInfo(lcPlans, "plan catalogue %s installed (%d plans)", qPrintable(catalogue->version()), catalogue->planCount());
    swapIn(catalogue);
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
    qCInfo(lcPlans, "plan catalogue %s loaded from changed %s (%d plans)", qPrintable(catalogue->version()),
           qPrintable(path), catalogue->planCount());
    try {
        publish(*json, *catalogue);
    } catch (const DatabaseError &error) {
        qCWarning(lcPlans, "catalogue %s not published to the other servers: %s", qPrintable(catalogue->version()),
                  error.what());
    }
    swapIn(catalogue);
}

void PlanCatalogueStore::swapIn(std::shared_ptr<const PlanCatalogue> catalogue)
{
    m_current.store(std::move(catalogue));
    Q_EMIT catalogueChanged();
}

bool PlanCatalogueStore::publish(const QByteArray &json, const PlanCatalogue &catalogue)
{
    if (!m_db)
        return false;
    // Wall time, not the Clock: at start it is compared with the catalogue file's modification time.
    m_publishedVersion =
        PlanCatalogueRepository(*m_db).publish(json, catalogue.origin(), QDateTime::currentMSecsSinceEpoch());
    qCInfo(lcPlans, "plan catalogue %s published for every server (version %lld)", qPrintable(catalogue.version()),
           m_publishedVersion);
    return true;
}

std::shared_ptr<const PlanCatalogue>
PlanCatalogueStore::startFromDatabase(const std::shared_ptr<const PlanCatalogue> &file, const QByteArray &fileJson,
                                      qint64 fileModifiedMs)
{
    try {
        const std::optional<StoredPlanCatalogue> stored = PlanCatalogueRepository(*m_db).load();
        const bool fileIsNewer =
            file && (!stored || (QCryptographicHash::hash(stored->json, QCryptographicHash::Sha256).toHex() !=
                                     file->sourceSha256() &&
                                 fileModifiedMs > stored->storedAtMs));
        if (fileIsNewer) {
            publish(fileJson, *file);
            return nullptr;
        }
        if (!stored)
            return nullptr;
        m_publishedVersion = stored->version;
        PlanCatalogueError error;
        std::shared_ptr<const PlanCatalogue> published =
            PlanCatalogue::fromJson(stored->json, m_operators, &error, stored->origin);
        if (!published) {
            qCWarning(lcPlans, "ignoring the published catalogue: %s", qPrintable(error.toString()));
            return nullptr;
        }
        qCInfo(lcPlans, "plan catalogue %s loaded from the database (version %lld)", qPrintable(published->version()),
               stored->version);
        return published;
    } catch (const DatabaseError &error) {
        qCWarning(lcPlans, "the published plan catalogue could not be read: %s", error.what());
        return nullptr;
    }
}

void PlanCatalogueStore::pollDatabase()
{
    if (!m_db)
        return;
    try {
        PlanCatalogueRepository repository(*m_db);
        if (repository.version() == m_publishedVersion)
            return;
        const std::optional<StoredPlanCatalogue> stored = repository.load();
        if (!stored)
            return;
        m_publishedVersion = stored->version;
        PlanCatalogueError error;
        std::shared_ptr<const PlanCatalogue> catalogue =
            PlanCatalogue::fromJson(stored->json, m_operators, &error, stored->origin);
        if (!catalogue) {
            qCWarning(lcPlans, "ignoring the catalogue another server published (keeping %s): %s",
                      qPrintable(current()->version()), qPrintable(error.toString()));
            Q_EMIT catalogueRejected(QStringLiteral("database: ") + error.toString());
            return;
        }
        qCInfo(lcPlans, "plan catalogue %s loaded from the database (version %lld, %d plans)",
               qPrintable(catalogue->version()), stored->version, catalogue->planCount());
        swapIn(std::move(catalogue));
    } catch (const DatabaseError &error) {
        qCDebug(lcPlans, "plan catalogue poll failed: %s", error.what());
    }
}

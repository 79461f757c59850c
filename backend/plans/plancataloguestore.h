#pragma once

#include "plancatalogue.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

class Clock;
class Database;
class OperatorCatalog;

/// Holds the plan catalogue the server answers endpoint 4 from, and replaces it as a whole.
/// At start it loads <dataDir>/plans/catalogue.json when that file is present and valid, else the
/// built-in catalogue. It watches <dataDir>/plans and swaps in a new valid catalogue file without a
/// restart (an invalid one is logged and ignored). The current catalogue is an immutable
/// std::shared_ptr<const PlanCatalogue> swapped atomically: a request keeps the one it started with.
///
/// With a database (issue 16: several servers on one database) the catalogue in force is the one
/// published in plan_catalogue: install() and a changed file publish there, and every kPollMs the store
/// reads the published version (one cheap SELECT) and swaps in a catalogue another server published, so
/// an import on any server is served by all within about a second. At start the published catalogue
/// wins over the file, unless the file is newer than it (an offline `plans import` while the server
/// was stopped): the file is then published.
class PlanCatalogueStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanCatalogueStore)

public:
    /// How often the published catalogue's version is read, in ms (with a database).
    static constexpr int kPollMs = 1000;

    /// `dataDir` empty: built-in catalogue only, no file, no watching, install() refused. `clock` dates an
    /// installed catalogue (its PlanCatalogueOrigin::updatedAt). `db` (may be null: this process alone) is
    /// the database the servers share the catalogue through; it must outlive the store and belong to
    /// this thread. Storage errors at start and while polling are logged, never thrown.
    PlanCatalogueStore(const OperatorCatalog &operators, const QString &dataDir, const Clock &clock,
                       Database *db = nullptr, QObject *parent = nullptr);
    ~PlanCatalogueStore() override;

    /// The catalogue in force now (never null).
    std::shared_ptr<const PlanCatalogue> current() const { return m_current.load(); }

    /// Validates `json` as a whole, publishes it to the database (when there is one), writes it
    /// atomically to catalogueFile() and makes it current. Throws ApiError 400 `invalid_catalogue`
    /// (description naming the JSON path or line, `field` the JSON path) when invalid, 500 when the
    /// file cannot be written, DatabaseError when it cannot be published; nothing changes then.
    std::shared_ptr<const PlanCatalogue> install(const QByteArray &json);

    /// <dataDir>/plans/catalogue.json.
    static QString catalogueFile(const QString &dataDir);

    /// The offline import (`rechargedesk plans import`): validates `json` as a whole and writes it
    /// atomically (QSaveFile) to catalogueFile(dataDir). Returns the parsed catalogue, or nullptr
    /// with *error set (the JSON path or line of the problem, or the I/O error) and nothing written.
    static std::shared_ptr<const PlanCatalogue> importFile(const QString &dataDir, const QByteArray &json,
                                                           const OperatorCatalog &operators, QString *error);

    /// Reads the published version now and swaps in the published catalogue when it moved (the poll
    /// timer calls this every kPollMs). Never throws: storage errors are logged.
    void pollDatabase();

Q_SIGNALS:
    /// A new catalogue became current (by install() or by a changed file on disk).
    void catalogueChanged();
    /// A changed catalogue file on disk was refused; `error` names the file and the JSON path or line.
    void catalogueRejected(const QString &error);

private:
    void reloadFromDisk();
    /// Publishes `json` (the valid source of `catalogue`) to the database, if any; true when it did.
    bool publish(const QByteArray &json, const PlanCatalogue &catalogue);
    /// The catalogue published in the database when it should be in force at start (see the class comment),
    /// else nullptr; publishes `file` (read from disk) when that is newer. Never throws.
    std::shared_ptr<const PlanCatalogue> startFromDatabase(const std::shared_ptr<const PlanCatalogue> &file,
                                                           const QByteArray &fileJson, qint64 fileModifiedMs);
    /// Makes `catalogue` current and tells the listeners.
    void swapIn(std::shared_ptr<const PlanCatalogue> catalogue);

    const OperatorCatalog &m_operators;
    QString m_dataDir;
    const Clock &m_clock;
    std::atomic<std::shared_ptr<const PlanCatalogue>> m_current;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadTimer; ///< coalesces the several directory events one file replacement makes
    Database *m_db;
    qint64 m_publishedVersion = 0; ///< the database version current() came from or was published as
    QTimer m_pollTimer;
};

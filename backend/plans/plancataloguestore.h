#pragma once

#include "plancatalogue.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

class Clock;
class OperatorCatalog;

/// Holds the plan catalogue the server answers endpoint 4 from, and replaces it as a whole.
/// At start it loads <dataDir>/plans/catalogue.json when that file is present and valid, else the
/// built-in catalogue. It watches <dataDir>/plans and swaps in a new valid catalogue file without a
/// restart (an invalid one is logged and ignored). The current catalogue is an immutable
/// std::shared_ptr<const PlanCatalogue> swapped atomically: a request keeps the one it started with.
class PlanCatalogueStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanCatalogueStore)

public:
    /// `dataDir` empty: built-in catalogue only, no file, no watching, install() refused. `clock` dates an
    /// installed catalogue (its PlanCatalogueOrigin::updatedAt).
    PlanCatalogueStore(const OperatorCatalog &operators, const QString &dataDir, const Clock &clock,
                       QObject *parent = nullptr);
    ~PlanCatalogueStore() override;

    /// The catalogue in force now (never null).
    std::shared_ptr<const PlanCatalogue> current() const { return m_current.load(); }

    /// Validates `json` as a whole, writes it atomically to catalogueFile() and makes it current.
    /// Throws ApiError 400 `invalid_catalogue` (description naming the JSON path or line, `field`
    /// the JSON path) when invalid, 500 when the file cannot be written; nothing changes then.
    std::shared_ptr<const PlanCatalogue> install(const QByteArray &json);

    /// <dataDir>/plans/catalogue.json.
    static QString catalogueFile(const QString &dataDir);

    /// The offline import (`rechargedesk plans import`): validates `json` as a whole and writes it
    /// atomically (QSaveFile) to catalogueFile(dataDir). Returns the parsed catalogue, or nullptr
    /// with *error set (the JSON path or line of the problem, or the I/O error) and nothing written.
    static std::shared_ptr<const PlanCatalogue> importFile(const QString &dataDir, const QByteArray &json,
                                                           const OperatorCatalog &operators, QString *error);

Q_SIGNALS:
    /// A new catalogue became current (by install() or by a changed file on disk).
    void catalogueChanged();
    /// A changed catalogue file on disk was refused; `error` names the file and the JSON path or line.
    void catalogueRejected(const QString &error);

private:
    void reloadFromDisk();

    const OperatorCatalog &m_operators;
    QString m_dataDir;
    const Clock &m_clock;
    std::atomic<std::shared_ptr<const PlanCatalogue>> m_current;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadTimer; ///< coalesces the several directory events one file replacement makes
};

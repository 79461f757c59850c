#pragma once

#include "plancatalogue.h"

#include <QByteArray>

#include <optional>

class Database;

/// A plan catalogue as the database keeps it for every server (issue 16).
struct StoredPlanCatalogue
{
    qint64 version = 0;         ///< grows with every publish()
    QByteArray json;            ///< the catalogue file's bytes
    PlanCatalogueOrigin origin; ///< where it came from and when
    qint64 storedAtMs = 0;      ///< when it was published (epoch ms)
};

/// The plan_catalogue table: the one catalogue all servers on the database serve. A server that imports
/// or syncs a catalogue publishes it here; the others poll version() and load() it when it moved
/// (PlanCatalogueStore). Every call throws DatabaseError.
class PlanCatalogueRepository
{
public:
    explicit PlanCatalogueRepository(Database &db) : m_db(db) {}

    /// The version of the published catalogue; 0 when none was ever published. One cheap SELECT.
    qint64 version();
    /// The published catalogue; nullopt when none was.
    std::optional<StoredPlanCatalogue> load();
    /// Replaces the published catalogue with `json` (already validated) in one statement and returns its
    /// new version.
    qint64 publish(const QByteArray &json, const PlanCatalogueOrigin &origin, qint64 nowMs);

private:
    Database &m_db;
};

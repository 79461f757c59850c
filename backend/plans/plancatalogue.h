#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QString>

#include <memory>

class OperatorCatalog;

/// Why a catalogue file was refused: the JSON path of the offending value (e.g.
/// `entries[12].categories[1].items[4].amount`) or, for a syntax error, the 1-based line and
/// column (in bytes) that QJsonParseError pointed at.
struct PlanCatalogueError
{
    QString path;    ///< empty for syntax errors and whole-file problems
    qint64 line = 0; ///< 1-based; 0 when not known
    qint64 column = 0;
    QString message;

    /// "entries[12].amount: must be an integer within 10..2500 for AT" or
    /// "line 3, column 17: unterminated string".
    QString toString() const;
};

/// The answer of endpoint 4 for one (operator, circle): the exact response body and its strong ETag.
struct PlanResponse
{
    QByteArray body; ///< {"data": {"entity": "prepaid_plans", ...}}, compact UTF-8 JSON
    QByteArray etag; ///< quoted, e.g. "\"3f2a...\"" (first 16 bytes of the body's SHA-256, in hex)
    /// The upstream's ETag for this pair when the catalogue came from `plans sync` (the entry's optional
    /// `upstream_etag`), sent back as If-None-Match by the next sync; empty otherwise.
    QByteArray upstreamEtag;
};

/// Where a catalogue came from and when (issue 13; GET /api/v1/plans/catalogue `source`, `updated_at`).
struct PlanCatalogueOrigin
{
    /// Shown to people: "upstream <host[:port]>", "shipped with the program" or "imported".
    QString source;
    /// The upstream's host[:port] when the catalogue came from `plans sync`; empty otherwise.
    QString upstreamHost;
    /// When the catalogue was made (a sync's end, an import, the shipped file's build); invalid when unknown.
    QDateTime updatedAt;
};

/// The prepaid plan catalogue of spec endpoint 4 ("Fetch prepaid plans"), validated as a whole
/// and pre-serialized: every (operator, circle) answer is built once, at construction, into the
/// exact response bytes with an ETag. Immutable; share it as std::shared_ptr<const PlanCatalogue>.
/// File format: resources/plans/SOURCES.md, "File format".
class PlanCatalogue
{
public:
    /// Largest catalogue file accepted, in bytes (also the body limit of PUT /api/v1/plans/catalogue).
    static constexpr qint64 kMaxFileBytes = 8 * 1024 * 1024;
    /// Largest number of plans one (operator, circle) may have.
    static constexpr int kMaxPlansPerPair = 500;
    /// Largest number of subscriptions one plan may list.
    static constexpr int kMaxSubscriptionsPerPlan = 20;
    /// Longest text field, in characters.
    static constexpr int kMaxTextLength = 1000;

    /// Path of the catalogue compiled into the binary (resources/plans/plans.json).
    static QString builtInPath();

    /// Parses and validates a whole catalogue file against `operators` (the 4 mobile operators and
    /// their amount limits, the 23 circles): every field present with its JSON type, plan_id positive
    /// and unique within its (operator, circle) (an upstream's ids repeat across pairs: issue 26),
    /// amounts within the operator's limits, each (operator, circle) pair exactly once, counts
    /// within the limits above. Returns nullptr with *error filled on the first problem; nothing is
    /// partially accepted.
    /// The file may record its origin in the optional top-level `source`, `upstream_host` (strings) and
    /// `updated_at` (ISO 8601 with offset); what it leaves out is taken from `fallback`.
    static std::shared_ptr<const PlanCatalogue> fromJson(const QByteArray &json, const OperatorCatalog &operators,
                                                         PlanCatalogueError *error,
                                                         const PlanCatalogueOrigin &fallback = {});

    /// The origin of the shipped catalogue: "shipped with the program", dated by the resource file.
    static PlanCatalogueOrigin builtInOrigin();

    /// Loads builtInPath(). Aborts (qFatal) if the shipped file is broken, which is a build defect.
    static std::shared_ptr<const PlanCatalogue> builtIn(const OperatorCatalog &operators);

    /// The pre-serialized answer for a mobile operator code and circle code; nullptr if the pair
    /// is not in the catalogue (never for a valid catalogue and valid codes).
    const PlanResponse *find(const QString &operatorCode, const QString &circleCode) const;

    /// The file's `catalogue_version`, e.g. "2025.1".
    const QString &version() const { return m_version; }
    /// Number of plans in the whole catalogue.
    int planCount() const { return m_planCount; }
    /// Number of (operator, circle) pairs (92 for a valid catalogue).
    int pairCount() const { return int(m_responses.size()); }
    /// SHA-256 of the file bytes this catalogue was parsed from, in hex (to notice an unchanged file).
    const QByteArray &sourceSha256() const { return m_sourceSha256; }
    /// Where this catalogue came from and when.
    const PlanCatalogueOrigin &origin() const { return m_origin; }

private:
    PlanCatalogue() = default;

    QString m_version;
    int m_planCount = 0;
    QByteArray m_sourceSha256;
    PlanCatalogueOrigin m_origin;
    QHash<QString, PlanResponse> m_responses; ///< key: operator code + circle code, e.g. "ATDL"
};

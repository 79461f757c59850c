#include "plancatalogue.h"

#include "operatorcatalog.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace {

constexpr double kMaxExactInteger = 9007199254740991.0; // 2^53 - 1: the largest integer a JSON reader keeps exact

/// Thrown inside the validator; turned into PlanCatalogueError by fromJson().
struct Invalid
{
    QString path;
    QString message;
};

QString indexed(const QString &path, qsizetype index)
{
    return path + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

QString member(const QString &path, QLatin1String name)
{
    return path.isEmpty() ? QString(name) : path + QLatin1Char('.') + name;
}

QJsonValue required(const QJsonObject &object, const QString &path, QLatin1String name)
{
    const QJsonValue value = object.value(name);
    if (value.isUndefined())
        throw Invalid{member(path, name), QStringLiteral("missing")};
    return value;
}

QJsonObject requireObject(const QJsonValue &value, const QString &path)
{
    if (!value.isObject())
        throw Invalid{path, QStringLiteral("must be an object")};
    return value.toObject();
}

QJsonArray requireArray(const QJsonObject &object, const QString &path, QLatin1String name, qsizetype minSize,
                        qsizetype maxSize)
{
    const QJsonValue value = required(object, path, name);
    if (!value.isArray())
        throw Invalid{member(path, name), QStringLiteral("must be an array")};
    const QJsonArray array = value.toArray();
    if (array.size() < minSize || array.size() > maxSize)
        throw Invalid{
            member(path, name),
            QStringLiteral("must have %1 to %2 elements, has %3").arg(minSize).arg(maxSize).arg(array.size())};
    return array;
}

/// A string member; `allowEmpty` only for `remark`.
QString requireString(const QJsonObject &object, const QString &path, QLatin1String name, bool allowEmpty = false)
{
    const QJsonValue value = required(object, path, name);
    if (!value.isString())
        throw Invalid{member(path, name), QStringLiteral("must be a string")};
    const QString text = value.toString();
    if (!allowEmpty && text.trimmed().isEmpty())
        throw Invalid{member(path, name), QStringLiteral("must not be empty")};
    if (text.size() > PlanCatalogue::kMaxTextLength)
        throw Invalid{member(path, name),
                      QStringLiteral("must be at most %1 characters").arg(PlanCatalogue::kMaxTextLength)};
    return text;
}

/// A JSON integer (no fraction, no string) in min..max.
std::optional<qint64> integerWithin(const QJsonValue &value, double min, double max)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!std::isfinite(d) || std::floor(d) != d || d < min || d > max)
        return std::nullopt;
    return qint64(d);
}

QString pairName(const QString &operatorCode, const QString &circleCode)
{
    return QStringLiteral("(%1, %2)").arg(operatorCode, circleCode);
}

/// Validates one catalogue document and builds the per-pair answers.
class Builder
{
public:
    explicit Builder(const OperatorCatalog &operators) : m_operators(operators) {}

    void build(const QJsonObject &root, QString *version, int *planCount, QHash<QString, PlanResponse> *responses)
    {
        *version = requireString(root, QString(), QLatin1String("catalogue_version"));
        for (const char *name : {"source", "upstream_host", "updated_at"}) {
            const QJsonValue value = root.value(QLatin1String(name));
            if (!value.isUndefined() && !value.isString())
                throw Invalid{QString::fromLatin1(name), QStringLiteral("must be a string")};
        }
        const QJsonValue updatedAt = root.value(QLatin1String("updated_at"));
        if (updatedAt.isString() && !QDateTime::fromString(updatedAt.toString(), Qt::ISODate).isValid())
            throw Invalid{QStringLiteral("updated_at"), QStringLiteral("must be an ISO 8601 date and time")};
        const QJsonValue generatedBy = root.value(QLatin1String("generated_by"));
        if (!generatedBy.isUndefined() && !generatedBy.isString())
            throw Invalid{QStringLiteral("generated_by"), QStringLiteral("must be a string")};

        const QList<OperatorInfo> mobile = m_operators.operators(ProductKind::Mobile);
        const QList<CircleInfo> &circles = m_operators.circles();
        const qsizetype expectedPairs = mobile.size() * circles.size();
        const QJsonArray entries = requireArray(root, QString(), QLatin1String("entries"), 1, expectedPairs);

        QHash<QString, QString> pairSeenAt;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const QString path = indexed(QStringLiteral("entries"), i);
            const QJsonObject entry = requireObject(entries.at(i), path);
            const QString operatorCode = requireString(entry, path, QLatin1String("operator_code"));
            const OperatorInfo *op = m_operators.findOperator(operatorCode, ProductKind::Mobile);
            if (!op)
                throw Invalid{member(path, QLatin1String("operator_code")),
                              QStringLiteral("unknown operator \"%1\"; must be one of %2")
                                  .arg(operatorCode, m_operators.codeList(ProductKind::Mobile))};
            const QString circleCode = requireString(entry, path, QLatin1String("circle_code"));
            const CircleInfo *circle = m_operators.findCircle(circleCode);
            if (!circle)
                throw Invalid{member(path, QLatin1String("circle_code")),
                              QStringLiteral("unknown circle \"%1\"").arg(circleCode)};
            const QString key = op->code + circle->code;
            if (pairSeenAt.contains(key))
                throw Invalid{path, QStringLiteral("%1 appears again; first at %2")
                                        .arg(pairName(op->code, circle->code), pairSeenAt.value(key))};
            pairSeenAt.insert(key, path);

            const QJsonObject data = buildPair(entry, path, *op, *circle);
            const QByteArray body =
                QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}).toJson(QJsonDocument::Compact);
            const QByteArray digest = QCryptographicHash::hash(body, QCryptographicHash::Sha256);
            const QJsonValue upstreamEtag = entry.value(QLatin1String("upstream_etag"));
            if (!upstreamEtag.isUndefined() && !upstreamEtag.isString())
                throw Invalid{member(path, QLatin1String("upstream_etag")), QStringLiteral("must be a string")};
            responses->insert(
                key, PlanResponse{body, '"' + digest.first(16).toHex() + '"', upstreamEtag.toString().toUtf8()});
        }

        QStringList missing;
        for (const OperatorInfo &op : mobile) {
            for (const CircleInfo &circle : circles) {
                if (!pairSeenAt.contains(op.code + circle.code))
                    missing.append(pairName(op.code, circle.code));
            }
        }
        if (!missing.isEmpty())
            throw Invalid{QStringLiteral("entries"),
                          QStringLiteral("%1 of the %2 (operator, circle) pairs are missing: %3")
                              .arg(missing.size())
                              .arg(expectedPairs)
                              .arg(missing.size() > 10
                                       ? missing.mid(0, 10).join(QStringLiteral(", ")) + QStringLiteral(", ...")
                                       : missing.join(QStringLiteral(", ")))};
        *planCount = m_planCount;
    }

private:
    QJsonObject buildPair(const QJsonObject &entry, const QString &path, const OperatorInfo &op,
                          const CircleInfo &circle)
    {
        const QJsonArray categories =
            requireArray(entry, path, QLatin1String("categories"), 1, PlanCatalogue::kMaxPlansPerPair);
        QJsonArray outCategories;
        QSet<QString> names;
        int plansInPair = 0;
        m_planIdSeenAt.clear(); // plan ids are the upstream's: unique within one (operator, circle) only
        for (qsizetype c = 0; c < categories.size(); ++c) {
            const QString categoryPath = indexed(member(path, QLatin1String("categories")), c);
            const QJsonObject category = requireObject(categories.at(c), categoryPath);
            const QString name = requireString(category, categoryPath, QLatin1String("name"));
            if (names.contains(name))
                throw Invalid{
                    member(categoryPath, QLatin1String("name")),
                    QStringLiteral("category \"%1\" appears twice in %2").arg(name, pairName(op.code, circle.code))};
            names.insert(name);
            const QJsonArray items =
                requireArray(category, categoryPath, QLatin1String("items"), 1, PlanCatalogue::kMaxPlansPerPair);
            plansInPair += int(items.size());
            if (plansInPair > PlanCatalogue::kMaxPlansPerPair)
                throw Invalid{path, QStringLiteral("has more than %1 plans").arg(PlanCatalogue::kMaxPlansPerPair)};
            QJsonArray outItems;
            for (qsizetype p = 0; p < items.size(); ++p)
                outItems.append(buildPlan(items.at(p), indexed(member(categoryPath, QLatin1String("items")), p), op));
            outCategories.append(QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                                             {QStringLiteral("name"), name},
                                             {QStringLiteral("count"), outItems.size()},
                                             {QStringLiteral("items"), outItems}});
        }
        m_planCount += plansInPair;
        return QJsonObject{{QStringLiteral("entity"), QStringLiteral("prepaid_plans")},
                           {QStringLiteral("operator"), op.name},
                           {QStringLiteral("circle"), circle.name},
                           {QStringLiteral("categories"), outCategories}};
    }

    QJsonObject buildPlan(const QJsonValue &value, const QString &path, const OperatorInfo &op)
    {
        const QJsonObject plan = requireObject(value, path);
        const QString planIdPath = member(path, QLatin1String("plan_id"));
        const std::optional<qint64> planId =
            integerWithin(required(plan, path, QLatin1String("plan_id")), 1, kMaxExactInteger);
        if (!planId)
            throw Invalid{planIdPath, QStringLiteral("must be a positive integer")};
        if (const auto seen = m_planIdSeenAt.constFind(*planId); seen != m_planIdSeenAt.cend())
            throw Invalid{planIdPath, QStringLiteral("%1 is already used at %2").arg(*planId).arg(*seen)};
        m_planIdSeenAt.insert(*planId, path);

        const std::optional<qint64> amount =
            integerWithin(required(plan, path, QLatin1String("amount")), double(op.minRupees), double(op.maxRupees));
        if (!amount)
            throw Invalid{member(path, QLatin1String("amount")),
                          QStringLiteral("must be an integer within %1..%2 for %3")
                              .arg(op.minRupees)
                              .arg(op.maxRupees)
                              .arg(op.code)};

        QJsonObject out{{QStringLiteral("entity"), QStringLiteral("plan")},
                        {QStringLiteral("plan_id"), *planId},
                        {QStringLiteral("amount"), *amount}};
        for (const char *name : {"validity", "talktime", "benefit", "calls", "sms", "data"}) {
            const QLatin1String field(name);
            out.insert(field, requireString(plan, path, field));
        }
        out.insert(QLatin1String("remark"), requireString(plan, path, QLatin1String("remark"), true));

        const QJsonArray subscriptions =
            requireArray(plan, path, QLatin1String("subscriptions"), 0, PlanCatalogue::kMaxSubscriptionsPerPlan);
        QJsonArray outSubscriptions;
        for (qsizetype s = 0; s < subscriptions.size(); ++s) {
            const QString subscriptionPath = indexed(member(path, QLatin1String("subscriptions")), s);
            const QJsonObject subscription = requireObject(subscriptions.at(s), subscriptionPath);
            const QString name = requireString(subscription, subscriptionPath, QLatin1String("name"));
            const QString description = requireString(subscription, subscriptionPath, QLatin1String("description"));
            const QString logo = requireString(subscription, subscriptionPath, QLatin1String("logo"));
            static const QRegularExpression logoPattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\\.(svg|png)$"));
            if (!logoPattern.match(logo).hasMatch())
                throw Invalid{member(subscriptionPath, QLatin1String("logo")),
                              QStringLiteral("must be a plain .svg or .png file name (letters, digits, '-', '_')")};
            outSubscriptions.append(QJsonObject{{QStringLiteral("entity"), QStringLiteral("subscription")},
                                                {QStringLiteral("name"), name},
                                                {QStringLiteral("description"), description},
                                                {QStringLiteral("logo"), logo}});
        }
        out.insert(QLatin1String("subscriptions"), outSubscriptions);
        return out;
    }

    const OperatorCatalog &m_operators;
    QHash<qint64, QString> m_planIdSeenAt; ///< of the pair being built
    int m_planCount = 0;
};

} // namespace

QString PlanCatalogueError::toString() const
{
    if (line > 0)
        return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(message);
    if (!path.isEmpty())
        return path + QStringLiteral(": ") + message;
    return message;
}

QString PlanCatalogue::builtInPath()
{
    return QStringLiteral(":/plans/plans.json");
}

std::shared_ptr<const PlanCatalogue> PlanCatalogue::fromJson(const QByteArray &json, const OperatorCatalog &operators,
                                                             PlanCatalogueError *error,
                                                             const PlanCatalogueOrigin &fallback)
{
    *error = {};
    if (json.size() > kMaxFileBytes) {
        error->message = QStringLiteral("the catalogue is larger than %1 bytes").arg(kMaxFileBytes);
        return nullptr;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // offset is in bytes into `json`; turn it into a 1-based line and column.
        const qsizetype offset = std::clamp<qsizetype>(parseError.offset, 0, json.size());
        const QByteArrayView before = QByteArrayView(json).first(offset);
        error->line = before.count('\n') + 1;
        error->column = offset - (before.lastIndexOf('\n') + 1) + 1;
        error->message = QStringLiteral("%1 (byte offset %2)").arg(parseError.errorString()).arg(offset);
        return nullptr;
    }
    if (!document.isObject()) {
        error->message = QStringLiteral("the catalogue must be a JSON object");
        return nullptr;
    }

    std::shared_ptr<PlanCatalogue> catalogue(new PlanCatalogue);
    try {
        Builder(operators).build(document.object(), &catalogue->m_version, &catalogue->m_planCount,
                                 &catalogue->m_responses);
    } catch (const Invalid &invalid) {
        error->path = invalid.path;
        error->message = invalid.message;
        return nullptr;
    }
    catalogue->m_sourceSha256 = QCryptographicHash::hash(json, QCryptographicHash::Sha256).toHex();
    const QJsonObject root = document.object();
    catalogue->m_origin = fallback;
    if (root.contains(QLatin1String("source")))
        catalogue->m_origin.source = root.value(QLatin1String("source")).toString();
    if (root.contains(QLatin1String("upstream_host")))
        catalogue->m_origin.upstreamHost = root.value(QLatin1String("upstream_host")).toString();
    if (root.contains(QLatin1String("updated_at")))
        catalogue->m_origin.updatedAt =
            QDateTime::fromString(root.value(QLatin1String("updated_at")).toString(), Qt::ISODate);
    return catalogue;
}

PlanCatalogueOrigin PlanCatalogue::builtInOrigin()
{
    return PlanCatalogueOrigin{QStringLiteral("shipped with the program"), QString(),
                               QFileInfo(builtInPath()).lastModified().toUTC()};
}

std::shared_ptr<const PlanCatalogue> PlanCatalogue::builtIn(const OperatorCatalog &operators)
{
    QFile file(builtInPath());
    if (!file.open(QIODevice::ReadOnly))
        qFatal("built-in plan catalogue %s: %s", qPrintable(builtInPath()), qPrintable(file.errorString()));
    PlanCatalogueError error;
    std::shared_ptr<const PlanCatalogue> catalogue = fromJson(file.readAll(), operators, &error, builtInOrigin());
    if (!catalogue)
        qFatal("built-in plan catalogue is invalid: %s", qPrintable(error.toString()));
    return catalogue;
}

const PlanResponse *PlanCatalogue::find(const QString &operatorCode, const QString &circleCode) const
{
    const auto it = m_responses.constFind(operatorCode + circleCode);
    return it == m_responses.cend() ? nullptr : &*it;
}

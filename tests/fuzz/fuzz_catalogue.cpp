// Fuzz target: the plan catalogue importer (PlanCatalogue::fromJson, behind PUT /api/v1/plans/catalogue and the
// built-in file). Input: the catalogue file. Invariants: the importer either refuses with a message (and, for a
// syntax error, a line and column inside the file) or yields a catalogue that answers every (operator, circle) pair
// with a {"data": {"entity": "prepaid_plans"}} body and its ETag, whose plans keep the operator's amount limits,
// and which re-validates: the catalogue rebuilt from its own answers is accepted and answers byte for byte the same.
#include "fuzzcheck.h"
#include "operatorcatalog.h"
#include "plans/plancatalogue.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>

namespace {

const OperatorCatalog &operators()
{
    static const OperatorCatalog catalog = OperatorCatalog::builtIn();
    return catalog;
}

// Checks one pair's answer and returns its entry in the file format, built from the answer alone.
QJsonObject checkedEntry(const PlanResponse &response, const OperatorInfo &op, const CircleInfo &circle, int *plans)
{
    const QByteArray digest = QCryptographicHash::hash(response.body, QCryptographicHash::Sha256);
    FUZZ_CHECK(response.etag == '"' + digest.first(16).toHex() + '"', "an ETag that is not the body's");
    QJsonParseError error;
    const QJsonObject data =
        QJsonDocument::fromJson(response.body, &error).object().value(QLatin1String("data")).toObject();
    FUZZ_CHECK(error.error == QJsonParseError::NoError, "an answer that is not JSON");
    FUZZ_CHECK(data.value(QLatin1String("entity")).toString() == QLatin1String("prepaid_plans"), "wrong entity");
    FUZZ_CHECK(data.value(QLatin1String("operator")).toString() == op.name, "an answer for another operator");
    FUZZ_CHECK(data.value(QLatin1String("circle")).toString() == circle.name, "an answer for another circle");
    const QJsonArray categories = data.value(QLatin1String("categories")).toArray();
    FUZZ_CHECK(!categories.isEmpty(), "an answer without categories");
    for (const QJsonValue &category : categories) {
        const QJsonArray items = category.toObject().value(QLatin1String("items")).toArray();
        FUZZ_CHECK(!items.isEmpty() && category.toObject().value(QLatin1String("count")).toInteger() == items.size(),
                   "a category whose count is not its items");
        for (const QJsonValue &item : items) {
            const qint64 amount = item.toObject().value(QLatin1String("amount")).toInteger(-1);
            FUZZ_CHECK(amount >= op.minRupees && amount <= op.maxRupees, "a plan amount outside the operator limits");
            FUZZ_CHECK(item.toObject().value(QLatin1String("plan_id")).toInteger(0) > 0, "a plan without plan_id");
        }
        *plans += int(items.size());
    }
    return QJsonObject{{QStringLiteral("operator_code"), op.code},
                       {QStringLiteral("circle_code"), circle.code},
                       {QStringLiteral("categories"), categories}};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray file(reinterpret_cast<const char *>(data), qsizetype(size));
    PlanCatalogueError error;
    const std::shared_ptr<const PlanCatalogue> catalogue = PlanCatalogue::fromJson(file, operators(), &error);
    if (!catalogue) {
        FUZZ_CHECK(!error.message.isEmpty() && !error.toString().isEmpty(), "a refusal without a message");
        if (error.line > 0)
            FUZZ_CHECK(error.column > 0 && error.line <= file.count('\n') + 1, "a syntax error outside the file");
        return 0;
    }

    const QList<OperatorInfo> mobile = operators().operators(ProductKind::Mobile);
    FUZZ_CHECK(catalogue->pairCount() == mobile.size() * operators().circles().size(), "pairs missing");
    FUZZ_CHECK(catalogue->sourceSha256() == QCryptographicHash::hash(file, QCryptographicHash::Sha256).toHex(),
               "sourceSha256 is not the file's");
    FUZZ_CHECK(!catalogue->version().trimmed().isEmpty(), "a catalogue without a version");
    QJsonArray entries;
    int plans = 0;
    for (const OperatorInfo &op : mobile) {
        for (const CircleInfo &circle : operators().circles()) {
            const PlanResponse *response = catalogue->find(op.code, circle.code);
            FUZZ_CHECK(response, "a valid catalogue without an answer for a pair");
            entries.append(checkedEntry(*response, op, circle, &plans));
        }
    }
    FUZZ_CHECK(plans == catalogue->planCount(), "planCount is not the number of plans answered");

    const QByteArray rebuilt = QJsonDocument(QJsonObject{{QStringLiteral("catalogue_version"), catalogue->version()},
                                                         {QStringLiteral("entries"), entries}})
                                   .toJson(QJsonDocument::Compact);
    PlanCatalogueError again;
    const std::shared_ptr<const PlanCatalogue> second = PlanCatalogue::fromJson(rebuilt, operators(), &again);
    if (!second)
        std::fprintf(stderr, "re-validation refused: %s\n", qPrintable(again.toString()));
    FUZZ_CHECK(second, "the catalogue rebuilt from its own answers does not re-validate");
    FUZZ_CHECK(second->planCount() == catalogue->planCount(), "re-validation changed the plan count");
    for (const OperatorInfo &op : mobile) {
        for (const CircleInfo &circle : operators().circles())
            FUZZ_CHECK(second->find(op.code, circle.code)->body == catalogue->find(op.code, circle.code)->body,
                       "re-validation changed an answer");
    }
    return 0;
}

#pragma once

#include "money.h"

#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>

/// What an operator code sells: a prepaid mobile recharge, a DTH recharge or an app-store voucher.
enum class ProductKind
{
    Mobile,
    Dth,
    Voucher
};

/// One operator of the spec's Limits table: two-letter code, display name, amount limits in
/// whole rupees (inclusive), default discount in basis points (api-conventions.md "Names and
/// money") and, for DTH, the subscriber-number rule and a hint for people.
struct OperatorInfo
{
    QString code;
    QString name;
    ProductKind kind = ProductKind::Mobile;
    qint64 minRupees = 0;
    qint64 maxRupees = 0;
    int discountBasisPoints = 0;
    QRegularExpression numberPattern; ///< DTH only; invalid (empty) for the others
    QString numberHint;               ///< DTH only
};

/// A telecom circle of the spec's circle table: two-letter code and name.
struct CircleInfo
{
    QString code;
    QString name;
};

/// The operator and circle tables, loaded from resources/data/*.json (compiled in as :/data/).
/// Immutable after loading; cheap to copy (implicitly shared containers).
class OperatorCatalog
{
public:
    /// Loads the tables shipped in the binary. Aborts (qFatal) if the shipped files are broken,
    /// which is a build defect, not a runtime condition.
    static OperatorCatalog builtIn();

    /// Parses the two JSON documents; nullopt with *error set on a malformed document.
    static std::optional<OperatorCatalog> fromJson(const QByteArray &operatorsJson, const QByteArray &circlesJson,
                                                   QString *error);

    /// The operator with this code, if it sells `kind`; nullptr otherwise.
    const OperatorInfo *findOperator(const QString &code, ProductKind kind) const;
    /// The operator with this code whatever it sells; nullptr if unknown.
    const OperatorInfo *findOperator(const QString &code) const;
    /// The single voucher issuer (Google Play).
    const OperatorInfo &voucherIssuer() const;
    /// The circle with this code; nullptr if unknown.
    const CircleInfo *findCircle(const QString &code) const;

    /// Operators selling `kind`, in file order.
    QList<OperatorInfo> operators(ProductKind kind) const;
    /// All 23 circles in the spec's order.
    const QList<CircleInfo> &circles() const { return m_circles; }
    /// Space-separated codes of `kind`, for error messages: "AT VI BS RJ".
    QString codeList(ProductKind kind) const;

    /// Replaces the discount rate of one operator (settings override); false if unknown code.
    bool setDiscount(const QString &code, int basisPoints);

private:
    QList<OperatorInfo> m_operators;
    QList<CircleInfo> m_circles;
};

#include "operatorcatalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

QByteArray readResource(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("RechargeDesk: built-in resource %s is missing", qPrintable(path));
    return file.readAll();
}

std::optional<ProductKind> kindFromString(const QString &text)
{
    if (text == QLatin1String("mobile"))
        return ProductKind::Mobile;
    if (text == QLatin1String("dth"))
        return ProductKind::Dth;
    if (text == QLatin1String("voucher"))
        return ProductKind::Voucher;
    return std::nullopt;
}

} // namespace

OperatorCatalog OperatorCatalog::builtIn()
{
    QString error;
    std::optional<OperatorCatalog> catalog = fromJson(readResource(QStringLiteral(":/data/operators.json")),
                                                      readResource(QStringLiteral(":/data/circles.json")), &error);
    if (!catalog)
        qFatal("RechargeDesk: built-in operator tables are invalid: %s", qPrintable(error));
    return *catalog;
}

std::optional<OperatorCatalog> OperatorCatalog::fromJson(const QByteArray &operatorsJson, const QByteArray &circlesJson,
                                                         QString *error)
{
    OperatorCatalog catalog;
    QJsonParseError parseError;
    const QJsonDocument operators = QJsonDocument::fromJson(operatorsJson, &parseError);
    if (!operators.isObject()) {
        *error = QStringLiteral("operators.json: ") + parseError.errorString();
        return std::nullopt;
    }
    const QJsonArray operatorList = operators.object().value(QStringLiteral("operators")).toArray();
    for (qsizetype i = 0; i < operatorList.size(); ++i) {
        const QJsonObject o = operatorList.at(i).toObject();
        OperatorInfo info;
        info.code = o.value(QStringLiteral("code")).toString();
        info.name = o.value(QStringLiteral("name")).toString();
        const std::optional<ProductKind> kind = kindFromString(o.value(QStringLiteral("kind")).toString());
        info.minRupees = o.value(QStringLiteral("min_amount")).toInteger(-1);
        info.maxRupees = o.value(QStringLiteral("max_amount")).toInteger(-1);
        info.discountBasisPoints = o.value(QStringLiteral("discount_bp")).toInt(-1);
        if (info.code.size() != 2 || info.name.isEmpty() || !kind || info.minRupees <= 0 ||
            info.maxRupees < info.minRupees || info.discountBasisPoints < 0 || info.discountBasisPoints > 10000) {
            *error = QStringLiteral("operators.json: operators[%1] is incomplete or out of range").arg(i);
            return std::nullopt;
        }
        info.kind = *kind;
        if (info.kind == ProductKind::Dth) {
            info.numberPattern = QRegularExpression(o.value(QStringLiteral("number_pattern")).toString());
            info.numberHint = o.value(QStringLiteral("number_hint")).toString();
            if (!info.numberPattern.isValid() || info.numberPattern.pattern().isEmpty()) {
                *error = QStringLiteral("operators.json: operators[%1].number_pattern is invalid").arg(i);
                return std::nullopt;
            }
        }
        catalog.m_operators.append(info);
    }

    const QJsonDocument circles = QJsonDocument::fromJson(circlesJson, &parseError);
    if (!circles.isObject()) {
        *error = QStringLiteral("circles.json: ") + parseError.errorString();
        return std::nullopt;
    }
    const QJsonArray circleList = circles.object().value(QStringLiteral("circles")).toArray();
    for (qsizetype i = 0; i < circleList.size(); ++i) {
        const QJsonObject c = circleList.at(i).toObject();
        CircleInfo info{c.value(QStringLiteral("code")).toString(), c.value(QStringLiteral("name")).toString()};
        if (info.code.size() != 2 || info.name.isEmpty()) {
            *error = QStringLiteral("circles.json: circles[%1] is incomplete").arg(i);
            return std::nullopt;
        }
        catalog.m_circles.append(info);
    }
    if (catalog.operators(ProductKind::Voucher).size() != 1) {
        *error = QStringLiteral("operators.json: exactly one voucher issuer is required");
        return std::nullopt;
    }
    return catalog;
}

const OperatorInfo *OperatorCatalog::findOperator(const QString &code, ProductKind kind) const
{
    const OperatorInfo *info = findOperator(code);
    return info && info->kind == kind ? info : nullptr;
}

const OperatorInfo *OperatorCatalog::findOperator(const QString &code) const
{
    for (const OperatorInfo &info : m_operators) {
        if (info.code == code)
            return &info;
    }
    return nullptr;
}

const OperatorInfo &OperatorCatalog::voucherIssuer() const
{
    for (const OperatorInfo &info : m_operators) {
        if (info.kind == ProductKind::Voucher)
            return info;
    }
    Q_UNREACHABLE();
}

const CircleInfo *OperatorCatalog::findCircle(const QString &code) const
{
    for (const CircleInfo &info : m_circles) {
        if (info.code == code)
            return &info;
    }
    return nullptr;
}

QList<OperatorInfo> OperatorCatalog::operators(ProductKind kind) const
{
    QList<OperatorInfo> result;
    for (const OperatorInfo &info : m_operators) {
        if (info.kind == kind)
            result.append(info);
    }
    return result;
}

QString OperatorCatalog::codeList(ProductKind kind) const
{
    QStringList codes;
    for (const OperatorInfo &info : m_operators) {
        if (info.kind == kind)
            codes.append(info.code);
    }
    return codes.join(QLatin1Char(' '));
}

bool OperatorCatalog::setDiscount(const QString &code, int basisPoints)
{
    for (OperatorInfo &info : m_operators) {
        if (info.code == code) {
            info.discountBasisPoints = basisPoints;
            return true;
        }
    }
    return false;
}
